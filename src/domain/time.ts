/** Durations in milliseconds, named once, and how instants are written out. */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** Epoch milliseconds as ISO 8601 UTC with milliseconds; null stays null. */
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The UTC day of an instant, `YYYY-MM-DD` (how days are named in the store and the API). */
export const utcDate = (epochMs: number): string => new Date(epochMs).toISOString().slice(0, 10);
