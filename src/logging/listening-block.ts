/**
 * What `npm start` shows a person at a terminal once it listens: where to go, in a few lines (the
 * JSON line with the process's figures is for log collectors, and still what a pipe or a file gets).
 */
/** The block, ending with a blank line; `host` as people type it (`localhost` for a loopback address); `explorer`: /graphiql is served. */
export function listeningBlock(config: { host: string; explorer: boolean }, marketDataPort: number, predictionPort: number): string {
  const host = config.host === '127.0.0.1' || config.host === '0.0.0.0' || config.host === '::' || config.host === '::1' ? 'localhost' : config.host;
  const a = `http://${host}:${marketDataPort}`;
  const b = `http://${host}:${predictionPort}`;
  const rows: [string, string, string][] = [
    ['Dashboard', `${a}/account`, 'sign up, create an API key'],
    ['API docs', `${a}/docs`, `market data; prediction markets at ${b}/docs`],
    ...(config.explorer ? [['GraphiQL', `${a}/graphiql`, 'the GraphQL explorer, offline'] as [string, string, string]] : []),
    ['REST', `${a}/api/v1`, `market data; prediction markets at ${b}/api/v1`],
  ];
  const width = Math.max(...rows.map(([, url]) => url.length));
  return [
    '',
    `market-gateway is running: market data on :${marketDataPort}, prediction markets on :${predictionPort}`,
    '',
    ...rows.map(([what, url, why]) => `  ${what.padEnd(10)} ${url.padEnd(width)}   ${why}`),
    '',
    'Stop it with Ctrl-C. Logs follow.',
    '',
    '',
  ].join('\n');
}
