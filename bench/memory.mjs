/**
 * What the service holds in memory, step by step, on a data directory (one seeded by
 * bench/seed-scale.mjs for the --scale figures): node alone, the service's modules loaded, the
 * store open, the asset read model, the key cache full, then the prediction read model. Each figure
 * is taken after two full collections, so it is what stays, not garbage. (The prediction model goes
 * last: measured before the key cache, a later step's collections released about as much as it
 * took, which made both figures wrong; last, it measures the same 33 MB in every run.) Prints one
 * JSON line.
 *
 *   node --expose-gc bench/memory.mjs <dataDir> [<keysFile>]     (npm run bench -- --scale runs it)
 */
import fs from 'node:fs';
import { createAuthenticator } from '../dist/src/auth/authenticator.js';

const [dataDir, keysFile] = process.argv.slice(2);
if (!globalThis.gc || !dataDir) throw new Error('usage: node --expose-gc bench/memory.mjs <dataDir> [<keysFile>]');
const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10;
const settled = () => {
  globalThis.gc();
  globalThis.gc();
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rss, held: heapUsed + external };
};

const steps = [];
/** What each step built stays reachable to the end, as it does in the service. */
const kept = [];
let last = settled();
const step = async (name, detail) => {
  await new Promise((resolve) => setTimeout(resolve, 50)); // pending callbacks (a closed statement iterator) let go first
  const now = settled();
  steps.push({ step: name, heldMb: mb(now.held - last.held), rssMb: mb(now.rss), ...detail });
  last = now;
};
steps.push({ step: 'node alone (heap and external)', heldMb: mb(last.held), rssMb: mb(last.rss) });

// Everything `start` loads: the server, GraphQL, Apollo, the store drivers, the CLI.
await import('../dist/src/app.js');
await import('../dist/src/cli/program.js');
await step('the service modules loaded');

const { createStore, openStore } = await import('../dist/src/store/index.js');
// As the service opens it: with the thread that checkpoints the WAL (its isolate is in the RSS, not in the heap held).
const store = createStore(await openStore({ dataDir, backgroundCheckpoints: { onError: (error) => console.error(error.message) } }));
await step('the store open (SQLite, its page cache empty, the WAL checkpointer thread)');

const { MarketReadModel } = await import('../dist/src/readmodel/market-read-model.js');
const markets = new MarketReadModel();
await markets.load(store.markets);
kept.push(markets);
await step('asset markets read model', { markets: markets.list({}, Date.now()).length });

// The key cache at its bound: 50 000 of the seeded keys presented once each.
if (keysFile) {
  const authenticator = createAuthenticator({ accounts: store.accounts, pollMs: 60_000 });
  kept.push(authenticator);
  let found = 0;
  // Each key copied out of the file: a key split from it is a slice that keeps the whole 4.5 MB
  // file alive, and the key pattern's RegExp holds its last match, which was counted as the cache's.
  const keys = fs
    .readFileSync(keysFile, 'utf8')
    .split('\n')
    .slice(0, 50_000)
    .map((line) => Buffer.from(line).toString());
  for (const key of keys) if (await authenticator.authenticate(key)) found++;
  keys.length = 0;
  await step('key cache at its bound', { keys: found });
}

const { PredictionReadModel } = await import('../dist/src/readmodel/prediction-read-model.js');
const predictions = new PredictionReadModel();
await predictions.load(store.prediction, Date.now());
kept.push(predictions);
await step('prediction markets read model (a day of hourly history)');

console.log(JSON.stringify(steps));
await store.connection.close();
