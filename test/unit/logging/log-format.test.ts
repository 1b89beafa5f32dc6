/**
 * Log lines as their reader expects them: JSON for a pipe or a file (a collector parses each line),
 * one readable line for a person at a terminal; the key is redacted either way.
 */
import { PassThrough } from 'node:stream';
import { consoleDestination, createLogger, type LogFormat } from '../../../src/logging/logger.js';

/** What one info line looks like on a stream that is, or is not, a terminal. */
function lineOn(format: LogFormat, isTTY: boolean): string {
  const out = Object.assign(new PassThrough(), { isTTY });
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  createLogger('info', consoleDestination(format, out)).info({ authorization: 'Bearer mgw_secret', route: '/api/v1/markets' }, 'request answered');
  return text;
}

it('auto on a pipe: one JSON object a line', () => {
  const line = JSON.parse(lineOn('auto', false));
  expect(line).toMatchObject({ level: 30, msg: 'request answered', route: '/api/v1/markets', authorization: '[redacted]' });
});

it('auto on a terminal: one readable line, not JSON, with the level, the message and the fields', () => {
  const text = lineOn('auto', true);
  expect(() => JSON.parse(text)).toThrow();
  expect(text.trimEnd().split('\n')).toHaveLength(1);
  expect(text).toMatch(/INFO.*request answered/);
  expect(text).toContain('/api/v1/markets');
  expect(text).toContain('[redacted]');
  expect(text).not.toContain('mgw_secret');
});

it('LOG_FORMAT=json on a terminal and pretty on a pipe override the guess', () => {
  expect(JSON.parse(lineOn('json', true)).msg).toBe('request answered');
  const pretty = lineOn('pretty', false);
  expect(pretty).toMatch(/INFO.*request answered/);
  expect(pretty).not.toContain('\u001b['); // no colours where no terminal reads them
});
