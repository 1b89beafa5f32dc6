/**
 * The V8 young generation the service is meant to run with. Node 24 sizes it from the machine's
 * memory (64 MB semi-spaces, so 128 MB of new space, on a 24 GB machine; Node 20 used 16 MB), and
 * under load a process then holds about 100 MB of short-lived garbage more than it needs. V8 reads
 * the size only when the process starts, so the bin's shebang line passes the flag
 * (`#!/usr/bin/env -S node --max-semi-space-size=16`); `npm start` runs the bin. The measurements
 * behind 16 are in docs/performance.md.
 */
export const YOUNG_GENERATION_FLAG = '--max-semi-space-size';

/** The semi-space size this process was started with, in MB, or 'v8 default' when no flag set it. */
export function youngGenerationOf(execArgv: readonly string[], nodeOptions = ''): number | 'v8 default' {
  const flags = [...execArgv, ...nodeOptions.split(/\s+/)];
  const flag = flags.findLast((f) => f.startsWith(`${YOUNG_GENERATION_FLAG}=`) || f.startsWith('--max_semi_space_size='));
  return flag ? Number(flag.split('=')[1]) : 'v8 default';
}
