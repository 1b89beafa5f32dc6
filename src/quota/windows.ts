/** Fixed windows aligned to the UTC clock (D4): the minute starts at second 0, the day at 00:00 UTC. */

export type WindowName = 'minute' | 'day';

export const WINDOW_MS: Record<WindowName, number> = { minute: 60_000, day: 86_400_000 };

export interface WindowSpan {
  /** Sequence number of the window since the epoch: part of the counter key, so windows never overlap. */
  index: number;
  endsAt: number;
}

export function windowAt(name: WindowName, now: number): WindowSpan {
  const size = WINDOW_MS[name];
  const index = Math.floor(now / size);
  return { index, endsAt: (index + 1) * size };
}
