/** What a person at a terminal reads once `npm start` listens: where to go, in a few aligned lines. */
import { listeningBlock } from '../../../src/logging/listening-block.js';

it('names the dashboard, the docs, the explorer and the REST bases, on localhost for a loopback or wildcard host', () => {
  const block = listeningBlock({ host: '127.0.0.1', explorer: true }, 4000, 4001);
  expect(block.split('\n')).toEqual([
    '',
    'market-gateway is running: market data on :4000, prediction markets on :4001',
    '',
    '  Dashboard  http://localhost:4000/account    sign up, create an API key',
    '  API docs   http://localhost:4000/docs       market data; prediction markets at http://localhost:4001/docs',
    '  GraphiQL   http://localhost:4000/graphiql   the GraphQL explorer, offline',
    '  REST       http://localhost:4000/api/v1     market data; prediction markets at http://localhost:4001/api/v1',
    '',
    'Stop it with Ctrl-C. Logs follow.',
    '',
    '',
  ]);
  expect(listeningBlock({ host: '0.0.0.0', explorer: true }, 1, 2)).toContain('http://localhost:1/account');
});

it('leaves out GraphiQL where introspection is off (production), and keeps a named host', () => {
  const block = listeningBlock({ host: 'gateway.internal', explorer: false }, 4000, 4001);
  expect(block).not.toContain('GraphiQL');
  expect(block).toContain('http://gateway.internal:4000/account');
});
