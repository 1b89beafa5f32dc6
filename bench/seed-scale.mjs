/**
 * Seeds a bench data directory at scale, beside the demo feed's own data: 10 000 asset markets
 * with quotes, 10 000 prediction markets with a day of hourly history, 1 000 price alerts on the
 * bench key's account, and 100 000 accounts with one key each. The raw keys go to a file so the
 * load can rotate through them (their hashes, as always, are all the database holds).
 *
 *   node bench/seed-scale.mjs <dataDir> <accountId> <keysFile>   (DATABASE_URL picks PostgreSQL)
 */
import fs from 'node:fs';
import { generateApiKey, hashApiKey } from '../dist/src/auth/api-key.js';
import { openStore } from '../dist/src/store/index.js';

const [dataDir, accountId, keysFile] = process.argv.slice(2);
const MARKETS = Number(process.env.SCALE_MARKETS ?? 10_000);
const ALERTS = Number(process.env.SCALE_ALERTS ?? 1_000);
const KEYS = Number(process.env.SCALE_KEYS ?? 100_000);
const HOUR = 3_600_000;
const CHUNK = 500;

const connection = await openStore({ databaseUrl: process.env.DATABASE_URL, dataDir, queryTimeoutMs: 60_000 });
const { db } = connection;
const now = Date.now();
const pad = (i) => String(i).padStart(5, '0');

async function insert(table, count, row) {
  const started = Date.now();
  for (let from = 0; from < count; from += CHUNK) {
    const rows = [];
    for (let i = from; i < Math.min(count, from + CHUNK); i++) rows.push(...[row(i)].flat());
    // SQLite binds at most 32 766 variables per statement: 500 rows of a few columns each.
    for (let at = 0; at < rows.length; at += CHUNK)
      await db
        .insertInto(table)
        .values(rows.slice(at, at + CHUNK))
        .execute();
  }
  process.stderr.write(`seeded ${count} ${table} in ${Date.now() - started} ms\n`);
}

await insert('markets', MARKETS, (i) => ({
  symbol: `S${pad(i)}/USD`,
  name: `Scale Corp ${i}`,
  type: 'stocks',
  source: 'bench',
  stale_after_ms: 30 * 24 * HOUR,
  halted: 0,
}));
await insert('quotes', MARKETS, (i) => ({
  symbol: `S${pad(i)}/USD`,
  price: 10 + (i % 500),
  change_24h: ((i % 21) - 10) / 2,
  volume_24h: 1_000 + i,
  observed_at: now,
}));
await insert('prediction_markets', MARKETS, (i) => ({
  id: `bench:${i}`,
  source: 'bench',
  question: `Will scale question ${i} resolve yes?`,
  url: `https://example.org/q/${i}`,
  topic: 'bench',
  prob: 0.2 + (i % 60) / 100,
  volume_24h: 100 + ((i * 7919) % 1_000_000),
  updated_at: now,
}));
const hourNow = Math.floor(now / HOUR) * HOUR;
await insert('prediction_history', MARKETS, (i) =>
  Array.from({ length: 24 }, (_, h) => ({
    market_id: `bench:${i}`,
    hour_start: hourNow - h * HOUR,
    prob: 0.2 + ((i + h) % 60) / 100,
    observed_at: hourNow - h * HOUR,
  })),
);
await insert('price_alerts', ALERTS, (i) => ({
  id: `alrt_bench${pad(i)}`,
  account_id: accountId,
  symbol: `S${pad(i % MARKETS)}/USD`,
  kind: 'price_above',
  threshold: 1e9,
  signal: null,
  status: 'active',
  created_at: now - i * 1_000,
  expires_at: null,
  triggered_at: null,
}));
const keys = [];
await insert('accounts', KEYS, (i) => ({
  id: `acct_bench${pad(i)}`,
  name: `scale ${i}`,
  market_data_plan: 'enterprise',
  prediction_plan: 'pro',
  created_at: now,
}));
await insert('api_keys', KEYS, (i) => {
  const key = generateApiKey();
  keys.push(key);
  return {
    id: `key_bench${pad(i)}`,
    account_id: `acct_bench${pad(i)}`,
    display_prefix: key.slice(0, 12),
    key_hash: hashApiKey(key),
    name: `scale ${i}`,
    created_at: now,
    revoked_at: null,
  };
});
fs.writeFileSync(keysFile, keys.join('\n'));
await connection.close();
