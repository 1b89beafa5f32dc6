/**
 * /ready names a full disk while it lasts: raised by the first full-disk failure a
 * request meets, confirmed by a look at the free space of DATA_DIR's file system (injected here),
 * cleared by itself once there is room again. On PostgreSQL, whose disk cannot be looked at, a
 * 53100 counts for a window.
 */
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { buildReadiness, PG_DISK_FULL_MS, ROOM_BYTES } from '../../../src/composition/health.js';
import type { Stores } from '../../../src/composition/stores.js';
import { createDegradedAnswers } from '../../../src/edge/degraded.js';
import { MarketReadModel } from '../../../src/readmodel/market-read-model.js';
import { PredictionReadModel } from '../../../src/readmodel/prediction-read-model.js';
import { createStore, openStore, type Store } from '../../../src/store/index.js';
import { tempDataDir } from '../../support/engines.js';

const SQLITE_FULL = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
const PG_DISK_FULL = Object.assign(new Error('could not extend file "base/16384/2619": No space left on device'), { code: '53100' });

let dataDir: string;
let store: Store;
beforeAll(async () => {
  dataDir = tempDataDir();
  store = createStore(await openStore({ dataDir }));
});
afterAll(async () => {
  await store.connection.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const silent = () => createDegradedAnswers(pino(new Writable({ write: (_chunk, _encoding, done) => done() })));

function readiness(degraded: ReturnType<typeof silent>, options: { dataDir: string | undefined; free?: number }) {
  const looks: string[] = [];
  const state = { free: options.free ?? 0 };
  const ready = buildReadiness({
    stores: { store, redis: undefined } as Stores,
    markets: new MarketReadModel(),
    predictions: new PredictionReadModel(),
    liveFeeds: { stats: () => [] } as never,
    now: Date.now,
    degraded,
    dataDir: options.dataDir,
    freeBytes: async (dir) => {
      looks.push(dir);
      return state.free;
    },
  });
  return { ready, looks, state };
}

it('the embedded store: disk_full from a SQLITE_FULL while DATA_DIR has no room, with where; cleared by freed space, by itself', async () => {
  const degraded = silent();
  const { ready, looks, state } = readiness(degraded, { dataDir });

  // Nothing failed: no look at the disk at all.
  expect((await ready()).checks.storage).toBe('ok');
  expect(looks).toEqual([]);

  expect(degraded.answerFor('rest', SQLITE_FULL)?.status).toBe(503);
  const full = await ready();
  expect(full.ok).toBe(false);
  expect(full.checks).toMatchObject({ store: 'ok', storage: 'disk_full' });
  expect(full.details.storage).toEqual({ condition: 'disk_full', where: dataDir, freeBytes: 0, lastFailureAt: expect.any(String) });
  expect(looks).toEqual([dataDir]);

  // Less than ROOM_BYTES is still full; ROOM_BYTES is room, and the condition goes.
  state.free = ROOM_BYTES - 1;
  expect((await ready()).checks.storage).toBe('disk_full');
  state.free = ROOM_BYTES;
  const healed = await ready();
  expect(healed.checks.storage).toBe('ok');
  expect(healed.details.storage).toBeUndefined();

  // Space gone again with no failure seen: not raised by a look alone (SQLite may write on in its WAL).
  state.free = 0;
  looks.length = 0;
  expect((await ready()).checks.storage).toBe('ok');
  expect(looks).toEqual([]);
  // A newer failure raises it again.
  await new Promise((r) => setTimeout(r, 2));
  degraded.record('quota A', new Error('day count not kept', { cause: SQLITE_FULL }));
  expect((await ready()).checks.storage).toBe('disk_full');
});

it('a lost connection is not a full disk', async () => {
  const degraded = silent();
  const { ready } = readiness(degraded, { dataDir });
  degraded.answerFor('rest', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
  expect((await ready()).checks.storage).toBe('ok');
});

it('PostgreSQL: a 53100 names the database server for PG_DISK_FULL_MS, without a look at any local disk', async () => {
  const degraded = silent();
  const { ready, looks } = readiness(degraded, { dataDir: undefined });
  degraded.answerFor('graphql', PG_DISK_FULL);
  const full = await ready();
  expect(full.checks.storage).toBe('disk_full');
  expect(full.details.storage).toEqual({ condition: 'disk_full', where: 'the PostgreSQL server', lastFailureAt: expect.any(String) });
  expect(looks).toEqual([]);

  const old = readiness({ ...degraded, lastDiskFull: () => Date.now() - PG_DISK_FULL_MS }, { dataDir: undefined });
  expect((await old.ready()).checks.storage).toBe('ok');
});
