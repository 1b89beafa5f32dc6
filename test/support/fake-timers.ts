/**
 * A fake clock for the tests that drive timers by hand, on @sinonjs/fake-timers (what Jest's own
 * fake timers are built on; the light runner the suite uses has none with async advancing). One
 * clock at a time; `realClock` puts the real ones back and may be called twice.
 */
import { type Clock, type Config, install } from '@sinonjs/fake-timers';
import { afterEachFile } from './each-file.js';

let installed: Clock | undefined;

function clock(): Clock {
  if (!installed) throw new Error('no fake clock installed: call fakeTheClock() first');
  return installed;
}

export function fakeTheClock(options: Config = {}): void {
  realClock();
  installed = install(options);
}

export function realClock(): void {
  installed?.uninstall();
  installed = undefined;
}

// A file that left the clock fake must not freeze the timers of the files after it on its worker.
afterEachFile(realClock);

/** Runs the timers due within `ms`, letting promises settle between them. */
export async function tickAsync(ms: number): Promise<void> {
  await clock().tickAsync(ms);
}

export function pendingTimers(): number {
  return clock().countTimers();
}
