/**
 * Checkpoints the embedded store's WAL on a thread of its own, so that the service's event loop
 * never waits on the disk for it.
 *
 * SQLite checkpoints on the commit that takes the WAL past 1 000 pages, in the committing thread,
 * and a checkpoint ends with an fsync of the WAL and one of the database file. With 100 000 keys in
 * rotation (a usage row for nearly every request) that was a commit every second or two holding the
 * event loop for 10 to 20 ms, all of it in those two fsyncs (`perf trace` of the service; docs/
 * performance-log.md). Commits themselves do not sync in WAL mode with `synchronous = NORMAL`.
 *
 * The service's connection stops checkpointing once the thread is running, and checkpoints again as
 * before if the thread stops or fails: the WAL never grows without bound.
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import type { CheckpointWorkerData, CheckpointWorkerMessage } from './wal-checkpoint-worker.js';

/** SQLite's own default: the committing connection checkpoints past this many pages. */
const AUTOCHECKPOINT_PAGES = 1000;

export interface WalCheckpointer {
  /** Resolves once the thread checkpointed again (tests). */
  nextCheckpoint(): Promise<{ walFrames: number; copied: number }>;
  /** A last checkpoint, then the thread ends; the connection checkpoints on its commits again. */
  stop(): Promise<void>;
}

/** The worker's file beside this one: compiled (.js), or the source under the tests (.ts). */
function workerFile(): URL {
  const compiled = new URL('./wal-checkpoint-worker.js', import.meta.url);
  return fs.existsSync(compiled) ? compiled : new URL('./wal-checkpoint-worker.ts', import.meta.url);
}

export async function startWalCheckpointer(
  sqlite: BetterSqlite3.Database,
  options: { intervalMs: number; onError: (error: Error) => void },
): Promise<WalCheckpointer> {
  // The thread costs about 14 MB of RSS (a Node worker's own isolate), measured beside the store alone.
  const worker = new Worker(workerFile(), {
    name: 'wal-checkpointer',
    workerData: { file: sqlite.name, intervalMs: options.intervalMs } satisfies CheckpointWorkerData,
  });
  let waiting: ((result: { walFrames: number; copied: number }) => void)[] = [];
  let stopping = false;
  const handBack = () => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  };

  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (message: CheckpointWorkerMessage) =>
      message.type === 'ready' ? resolve() : reject(new Error('the WAL checkpointer did not start')),
    );
  });
  sqlite.pragma('wal_autocheckpoint = 0');

  // A failure is told once, not every period while it lasts (a full disk); a success ends it.
  let failing = false;
  worker.on('message', (message: CheckpointWorkerMessage) => {
    if (message.type === 'checkpointed') {
      failing = false;
      for (const resolve of waiting) resolve(message);
      waiting = [];
    } else if (message.type === 'failed' && !failing) {
      failing = true;
      options.onError(new Error(`WAL checkpoint failed (tried again every period): ${message.message}`));
    }
  });
  worker.on('error', (error) => options.onError(error));
  worker.on('exit', () => {
    handBack();
    if (!stopping) options.onError(new Error('the WAL checkpointer stopped; the store checkpoints on its commits again'));
  });
  // The thread alone must not keep the process alive.
  worker.unref();

  return {
    nextCheckpoint: () => new Promise((resolve) => waiting.push(resolve)),
    async stop() {
      if (stopping) return;
      stopping = true;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.ref(); // the last checkpoint is waited for, also by a process that is otherwise done
      worker.postMessage('stop');
      await exited;
      handBack();
    },
  };
}
