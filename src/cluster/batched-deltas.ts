/**
 * Counts kept in memory and added to a shared store in batches (the day quotas, usage records):
 * each instance adds what it counted, so a write is a sum. A write that fails puts its deltas back,
 * to go with the next one: an outage delays the counts and loses none of them. A process killed
 * outright loses what it counted since its last write (at most one interval).
 *
 * A write goes in parts of at most `partSize` deltas, with the event loop free between them: with
 * 100 000 keys in rotation a second's usage rows were 7 000 upserts in one synchronous SQLite
 * transaction (about 30 ms in which no request was answered). A part that fails is put back with
 * the parts after it; the parts before it are written, and stay counted once. Counts added while
 * a write is under way go with the next one.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface BatchedDeltasOptions<Delta> {
  /** Adds a batch to the store; throwing keeps it for the next write. */
  write(batch: Delta[]): Promise<void>;
  /** Folds `from` (a batch that failed) into `into` (counted since). */
  merge(into: Delta, from: Delta): void;
  /** Milliseconds between writes. */
  intervalMs: number;
  /** Deltas per `write` call (default 500, as store/batches.ts's rows per INSERT). */
  partSize?: number;
  /** Told of a failed write with how many deltas wait. */
  onWriteFailed(error: unknown, pending: number): void;
}

export interface BatchedDeltas<Delta> {
  /**
   * The pending delta of `id` in `group`, made by `create` when there is none: the caller adds to
   * it. Two parts, so that a request names its delta with a string it already holds (a key's id),
   * in one of a few groups (a route on a day): one string joined from all four parts was made on
   * every request, and kept with each new delta until the next write (with 100 000 keys in rotation,
   * half of what the process promoted to the old generation).
   */
  entry(group: string, id: string, create: () => Delta): Delta;
  /** Writes what is pending; resolves once everything counted before the call is written (or put back). */
  flush(): Promise<void>;
  /** Stops the interval and writes what is pending. */
  stop(): Promise<void>;
}

export function createBatchedDeltas<Delta>(options: BatchedDeltasOptions<Delta>): BatchedDeltas<Delta> {
  const partSize = options.partSize ?? 500;
  /** Pending deltas by group, then by id. */
  let pending = new Map<string, Map<string, Delta>>();
  let count = 0;

  function place(group: string, id: string, delta: Delta): void {
    let ids = pending.get(group);
    if (!ids) {
      ids = new Map();
      pending.set(group, ids);
    }
    ids.set(id, delta);
    count++;
  }

  // Writes run one after another: a flush resolves only once every count recorded before it was
  // called is in the store, including those an interval's write had already taken and was writing.
  let writing: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    writing = writing.then(writePending);
    return writing;
  };

  async function writePending(): Promise<void> {
    if (count === 0) return;
    const taken = pending;
    pending = new Map();
    count = 0;
    const deltas: Delta[] = [];
    for (const ids of taken.values()) for (const delta of ids.values()) deltas.push(delta);
    for (let start = 0; start < deltas.length; start += partSize) {
      // Requests that arrived meanwhile are answered before the next part.
      if (start > 0) await nextTurn();
      try {
        await options.write(deltas.slice(start, start + partSize));
      } catch (error) {
        putBack(taken, start);
        options.onWriteFailed(error, count);
        return;
      }
    }
  }

  /** The deltas not written (all but the first `written`, in the order taken) go back, folded into what was counted since. */
  function putBack(taken: Map<string, Map<string, Delta>>, written: number): void {
    let index = 0;
    for (const [group, ids] of taken) {
      for (const [id, delta] of ids) {
        if (index++ < written) continue;
        const since = pending.get(group)?.get(id);
        if (since) options.merge(since, delta);
        else place(group, id, delta);
      }
    }
  }

  const timer = setInterval(() => void flush(), options.intervalMs);
  timer.unref();

  return {
    entry(group, id, create) {
      let delta = pending.get(group)?.get(id);
      if (delta === undefined) {
        delta = create();
        place(group, id, delta);
      }
      return delta;
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
