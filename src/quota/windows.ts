/** Fixed windows aligned to the UTC clock (D4): the minute starts at second 0, the day at 00:00 UTC. */
import { DAY_MS, MINUTE_MS } from '../domain/time.js';

export type WindowName = 'minute' | 'day';

const WINDOW_MS: Record<WindowName, number> = { minute: MINUTE_MS, day: DAY_MS };

interface WindowSpan {
  /** Sequence number of the window since the epoch: part of the counter key, so windows never overlap. */
  index: number;
  endsAt: number;
}

export function windowAt(name: WindowName, now: number): WindowSpan {
  const size = WINDOW_MS[name];
  const index = Math.floor(now / size);
  return { index, endsAt: (index + 1) * size };
}
