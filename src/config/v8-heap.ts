/**
 * The V8 heap the service is meant to run with, set by the bin's shebang line
 * (`#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=16 --heap-growing-percent=35`;
 * `npm start` runs the bin): V8 reads both flags only when the process starts, glibc its variable. Node 24 sizes the heap from the machine's
 * memory, and on a 24 GB machine a busy process held about twice what it needed (docs/performance-log.md,
 * "Memory"):
 * - `--max-semi-space-size=16`: the young generation is 128 MB there (Node 20 used 32 MB);
 * - `--heap-growing-percent=35`: V8 let the old generation reach about 3.3 times the live data
 *   (a 4 GB heap limit) before a full collection, so a burst of short-lived garbage that survives
 *   a scavenge took RSS past 350 MB. At 1.5 times (50) the scale bench's peak was 246-253 MB, at
 *   1.35 times 234, with CPU per request within the machine's noise. It is no ceiling: the limit
 *   follows the live data, so more markets never make the process run out of heap.
 * - `MALLOC_ARENA_MAX=2`: glibc gives each thread that allocates an arena of its own (V8's helper
 *   threads, libuv's pool, the WAL checkpointer), and each keeps what it freed. At the scale
 *   bench's peak the arenas held 33 MB; with two, 27 (docs/performance-log.md).
 */
const V8_HEAP_FLAGS = { semiSpaceMb: '--max-semi-space-size', heapGrowingPercent: '--heap-growing-percent' } as const;

type HeapSettings = { [K in keyof typeof V8_HEAP_FLAGS]: number | 'v8 default' };

/** What this process was started with (the command line wins over NODE_OPTIONS), for the start-up log line. */
export function v8HeapOf(execArgv: readonly string[], nodeOptions = ''): HeapSettings {
  const flags = [...nodeOptions.split(/\s+/), ...execArgv].map((f) => f.replaceAll('_', '-'));
  const setting = (flag: string) => {
    const last = flags.findLast((f) => f.startsWith(`${flag}=`));
    return last ? Number(last.slice(flag.length + 1)) : 'v8 default';
  };
  return { semiSpaceMb: setting(V8_HEAP_FLAGS.semiSpaceMb), heapGrowingPercent: setting(V8_HEAP_FLAGS.heapGrowingPercent) };
}
