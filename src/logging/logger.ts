/** pino JSON logs. Keys never reach a log line: headers are redacted and `apikey` is masked in URLs. */
import { pino, type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'market-gateway' },
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'apikey', 'key'],
      censor: '[redacted]',
    },
  });
}

/** `/api/v1/markets?apikey=mgw_secret&x=1` -> `/api/v1/markets?apikey=[redacted]&x=1` */
export function redactUrl(url: string): string {
  return url.replace(/([?&]apikey=)[^&#]*/gi, '$1[redacted]');
}
