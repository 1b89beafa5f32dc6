/**
 * The baseline for /graphql: stock Apollo Server 5 (startStandaloneServer, default plugins) over the
 * very same schema, resolvers and data as the service, with no edge at all (no key check, no plan,
 * no quota). Run from bench.ts on the bench's data directory: node bench/stock-apollo.mjs <port>
 */
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { createService } from '../dist/src/app.js';
import { loadConfig } from '../dist/src/config/config.js';
import { createLoaders } from '../dist/src/graphql/loaders.js';

const port = Number(process.argv[2]);
const service = await createService(loadConfig(), { role: 'http' });
const { account } = await service.store.accounts.createAccountWithKey({
  name: 'stock-apollo',
  marketDataPlan: 'enterprise',
  predictionPlan: 'pro',
  keyHash: `stock-${Date.now()}`,
  displayPrefix: 'stock',
  now: Date.now(),
});
const principal = { keyId: 'stock', account };
const server = new ApolloServer({ schema: service.schema });
await startStandaloneServer(server, {
  listen: { port, host: '127.0.0.1' },
  context: async () => ({ principal, services: service.services, loaders: createLoaders(service.services), transport: 'graphql', responseHeaders: {} }),
});
console.log(`stock apollo on ${port}`);
