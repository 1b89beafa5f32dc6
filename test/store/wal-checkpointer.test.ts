/**
 * The embedded store's WAL checkpointed on a thread of its own (store/wal-checkpointer.ts): the
 * service's commits no longer checkpoint (each checkpoint ended with two fsyncs on the event loop),
 * the thread copies the WAL into the database, and the connection checkpoints on its commits again
 * once the thread stops or cannot start. A real SQLite file in a temporary directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { openStore, SQLITE_FILE, type StoreConnection } from '../../src/store/database.js';
import { startWalCheckpointer } from '../../src/store/wal-checkpointer.js';
import { startTestService } from '../support/service.js';

const PAGE = 4096;
const WAL_FRAME = PAGE + 24;
const autocheckpoint = (sqlite: BetterSqlite3.Database) => sqlite.pragma('wal_autocheckpoint', { simple: true });

let dir: string;
let opened: StoreConnection[] = [];
/** What the stores opened here reported: nothing, in every test. */
let storeErrors: Error[] = [];
beforeEach(() => {
  storeErrors = [];
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-wal-'));
});
afterEach(async () => {
  for (const connection of opened) await connection.close();
  opened = [];
  expect(storeErrors).toEqual([]);
  fs.rmSync(dir, { recursive: true, force: true });
});

async function open(): Promise<StoreConnection & { sqlite: BetterSqlite3.Database }> {
  const connection = await openStore({ dataDir: dir, backgroundCheckpoints: { onError: (error) => storeErrors.push(error) } });
  opened.push(connection);
  connection.sqlite!.exec('create table scratch (body blob)');
  return connection as StoreConnection & { sqlite: BetterSqlite3.Database };
}

/** `pages` commits of one page each: past SQLite's 1 000-page autocheckpoint. */
function commitPages(sqlite: BetterSqlite3.Database, pages: number): void {
  const insert = sqlite.prepare('insert into scratch (body) values (?)');
  for (let i = 0; i < pages; i++) insert.run(Buffer.alloc(PAGE - 200, i % 251));
}

test("a store opened with background checkpoints leaves them to the thread: 1 500 commits grow the WAL past SQLite's 1 000 pages", async () => {
  const { walCheckpointer, sqlite: opened } = await open();
  expect(walCheckpointer).toBeDefined();
  expect(autocheckpoint(opened)).toBe(0);

  // The same on a connection of its own, whose thread waits an hour: nothing checkpoints meanwhile.
  const sqlite = new BetterSqlite3(path.join(dir, 'alone.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.exec('create table scratch (body blob)');
  const checkpointer = await startWalCheckpointer(sqlite, { intervalMs: 3_600_000, onError: () => undefined });
  try {
    commitPages(sqlite, 1_500);
    // Had a commit checkpointed, the WAL would have started over at about 1 000 frames.
    expect(fs.statSync(path.join(dir, 'alone.sqlite-wal')).size).toBeGreaterThan(1_400 * WAL_FRAME);
  } finally {
    await checkpointer.stop();
    sqlite.close();
  }
});

test('the thread copies the whole WAL into the database within its period, and a last time when it stops', async () => {
  const dataDir = dir;
  const sqlite = new BetterSqlite3(path.join(dataDir, SQLITE_FILE));
  sqlite.pragma('journal_mode = WAL');
  sqlite.exec('create table scratch (body blob)');
  const errors: Error[] = [];
  const checkpointer = await startWalCheckpointer(sqlite, { intervalMs: 20, onError: (error) => errors.push(error) });
  try {
    commitPages(sqlite, 300);
    let result = await checkpointer.nextCheckpoint();
    // A checkpoint that ran before the last commit leaves frames to the next one.
    while (result.walFrames === 0 || result.copied < result.walFrames) result = await checkpointer.nextCheckpoint();
    expect(result.copied).toBe(result.walFrames);

    commitPages(sqlite, 50);
  } finally {
    await checkpointer.stop();
  }
  // Everything was copied by the last checkpoint: a new one finds nothing left to copy.
  const [after] = sqlite.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
  expect(after!.checkpointed).toBe(after!.log);
  // And the connection checkpoints on its own commits again.
  expect(autocheckpoint(sqlite)).toBe(1000);
  expect(errors).toEqual([]);
  sqlite.close();
});

test('a thread that cannot open the store fails to start and leaves checkpoints on the commits', async () => {
  const file = path.join(dir, SQLITE_FILE);
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  fs.rmSync(file); // the connection keeps its open file; the thread finds none to open
  await expect(startWalCheckpointer(sqlite, { intervalMs: 1_000, onError: () => undefined })).rejects.toThrow(/unable to open|does not exist/);
  expect(autocheckpoint(sqlite)).toBe(1000);
  sqlite.close();
});

test('closing the store stops the thread before the connection: the WAL is copied and removed, and the file reads back', async () => {
  const { sqlite } = await open();
  commitPages(sqlite, 200);
  await opened.pop()!.close();
  expect(fs.existsSync(path.join(dir, `${SQLITE_FILE}-wal`))).toBe(false);
  const reopened = new BetterSqlite3(path.join(dir, SQLITE_FILE), { readonly: true });
  expect(reopened.prepare('select count(*) as n from scratch').get()).toEqual({ n: 200 });
  reopened.close();
});

test("the service's own store checkpoints on the thread", async () => {
  const t = await startTestService();
  try {
    expect(t.service.store.connection.walCheckpointer).toBeDefined();
    expect(autocheckpoint(t.service.store.connection.sqlite!)).toBe(0);
  } finally {
    await t.close();
  }
});
