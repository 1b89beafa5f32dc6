/**
 * Counts kept in memory and added to a shared store in batches (the day quotas, usage records):
 * each instance adds what it counted, so a write is a sum. A write that fails puts its deltas back,
 * to go with the next one: an outage delays the counts and loses none of them. A process killed
 * outright loses what it counted since its last write (at most one interval).
 */

export interface BatchedDeltasOptions<Delta> {
  /** Adds a batch to the store; throwing keeps it for the next write. */
  write(batch: Delta[]): Promise<void>;
  /** Folds `from` (a batch that failed) into `into` (counted since). */
  merge(into: Delta, from: Delta): void;
  /** Milliseconds between writes. */
  intervalMs: number;
  /** Told of a failed write with how many deltas wait. */
  onWriteFailed(error: unknown, pending: number): void;
}

export interface BatchedDeltas<Delta> {
  /** The pending delta of `id`, made by `create` when there is none: the caller adds to it. */
  entry(id: string, create: () => Delta): Delta;
  /** Writes what is pending; resolves once everything counted before the call is written (or put back). */
  flush(): Promise<void>;
  /** Stops the interval and writes what is pending. */
  stop(): Promise<void>;
}

export function createBatchedDeltas<Delta>(options: BatchedDeltasOptions<Delta>): BatchedDeltas<Delta> {
  let deltas = new Map<string, Delta>();

  // Writes run one after another: a flush resolves only once every count recorded before it was
  // called is in the store, including those an interval's write had already taken and was writing.
  let writing: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    writing = writing.then(writePending);
    return writing;
  };

  async function writePending(): Promise<void> {
    if (deltas.size === 0) return;
    const taken = deltas;
    deltas = new Map();
    try {
      await options.write([...taken.values()]);
    } catch (error) {
      for (const [id, delta] of taken) {
        const since = deltas.get(id);
        if (since) options.merge(since, delta);
        else deltas.set(id, delta);
      }
      options.onWriteFailed(error, deltas.size);
    }
  }

  const timer = setInterval(() => void flush(), options.intervalMs);
  timer.unref();

  return {
    entry(id, create) {
      let delta = deltas.get(id);
      if (delta === undefined) {
        delta = create();
        deltas.set(id, delta);
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
