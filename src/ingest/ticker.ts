/**
 * A periodic job that never overlaps itself: the next run is scheduled when the last one ends.
 * A failing run is logged and the next one runs; stop() waits for a run in flight, so no write
 * is cut in half. It can be started again after a stop.
 */
import type { Logger } from 'pino';

interface Ticker {
  start(): void;
  stop(): Promise<void>;
}

export function createTicker(options: { everyMs: number; run: () => Promise<void>; logger: Logger; name: string }): Ticker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = options
        .run()
        .catch((error) => options.logger.error({ err: error, job: options.name }, `${options.name} failed; the next run will retry`))
        .finally(schedule);
    }, options.everyMs);
    timer.unref();
  }

  return {
    // Restartable: a worker that loses its lease stops its jobs and starts them again when re-elected.
    start() {
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
