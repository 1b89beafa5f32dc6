/**
 * The WAL checkpointer's thread (wal-checkpointer.ts): its own connection to the embedded store,
 * a passive checkpoint every `intervalMs`, and a last one when asked to stop. Passive: it copies
 * what no reader still needs and never waits for a writer or a reader.
 *
 * Run as a worker file, so it imports packages only (from source, Node strips the types itself).
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';

export interface CheckpointWorkerData {
  file: string;
  intervalMs: number;
}

/** What the thread tells its owner. */
export type CheckpointWorkerMessage = { type: 'ready' } | { type: 'checkpointed'; walFrames: number; copied: number } | { type: 'failed'; message: string };

const { file, intervalMs } = workerData as CheckpointWorkerData;
const port = parentPort!;
const connection = new BetterSqlite3(file, { fileMustExist: true });
connection.pragma('busy_timeout = 1000');
// A checkpoint copies frames from the WAL to the file without the page cache: keep it small (the default is 16 MB).
connection.pragma('cache_size = -64');

function checkpoint(): void {
  try {
    const [result] = connection.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    port.postMessage({ type: 'checkpointed', walFrames: result?.log ?? 0, copied: result?.checkpointed ?? 0 } satisfies CheckpointWorkerMessage);
  } catch (error) {
    port.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies CheckpointWorkerMessage);
  }
}

const timer = setInterval(checkpoint, intervalMs);
port.on('message', (message: 'stop') => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  connection.close();
  port.close();
});
port.postMessage({ type: 'ready' } satisfies CheckpointWorkerMessage);
