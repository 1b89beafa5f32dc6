/**
 * The async iterators behind subscriptions: fed by a listener, bounded. A consumer that falls
 * behind (more than `maxQueued` messages waiting) is not buffered for without limit: the stream
 * ends and `onOverflow` is told, so the transport can close the connection.
 */

export interface StreamBounds {
  /** Messages that may wait for a consumer; one more ends the stream. */
  maxQueued: number;
  onOverflow(): void;
}

/**
 * A stream of what `start` pushes; `start` returns what stops the listening. `return()` (the client
 * completed, or disconnected) stops it too.
 */
export function listenerStream<T>(start: (push: (value: T) => void) => () => void, bounds: StreamBounds): AsyncIterableIterator<T> {
  const queue: T[] = [];
  let waiting: ((result: IteratorResult<T>) => void) | undefined;
  let done = false;
  const finish = (): IteratorResult<T> => {
    if (!done) {
      done = true;
      stop();
      waiting?.({ value: undefined, done: true });
      waiting = undefined;
    }
    return { value: undefined, done: true };
  };
  const stop = start((value) => {
    if (done) return;
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve({ value, done: false });
      return;
    }
    queue.push(value);
    if (queue.length > bounds.maxQueued) {
      queue.length = 0;
      finish();
      bounds.onOverflow();
    }
  });
  return {
    next() {
      if (queue.length > 0) return Promise.resolve({ value: queue.shift()!, done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    return() {
      return Promise.resolve(finish());
    },
    throw(error?: unknown) {
      finish();
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/**
 * Coalesces per key: at most one value per key every `gapMs`, the newest when several came
 * meanwhile (a quote that ticks ten times a second is sent once a second, at its latest).
 */
export function coalescePerKey<T>(start: (push: (value: T) => void) => () => void, keyOf: (value: T) => string, gapMs: number) {
  return (push: (value: T) => void): (() => void) => {
    const lastSent = new Map<string, number>();
    const pending = new Map<string, T>();
    const timers = new Map<string, NodeJS.Timeout>();
    const flush = (key: string) => {
      timers.delete(key);
      const value = pending.get(key);
      if (value === undefined) return;
      pending.delete(key);
      lastSent.set(key, Date.now());
      push(value);
    };
    const stop = start((value) => {
      const key = keyOf(value);
      pending.set(key, value);
      if (timers.has(key)) return;
      const wait = (lastSent.get(key) ?? Number.NEGATIVE_INFINITY) + gapMs - Date.now();
      if (wait <= 0) flush(key);
      else
        timers.set(
          key,
          setTimeout(() => flush(key), wait),
        );
    });
    return () => {
      stop();
      for (const timer of timers.values()) clearTimeout(timer);
    };
  };
}
