/** What the bench and the soak share: where the CLI is, starting pinned processes, reading /proc. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const CLI = path.join(ROOT, 'dist/src/cli/main.js');
export const HAS_TASKSET = spawnSync('taskset', ['-V']).status === 0 && os.cpus().length >= 2;

const pinned = (core: number, argv: string[]) => (HAS_TASKSET ? ['taskset', ['-c', String(core), ...argv]] : [argv[0]!, argv.slice(1)]) as [string, string[]];

/** utime + stime of a process, in ms (Linux /proc). */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks at USER_HZ = 100
}
/** Resident memory now (VmRSS), in MB. */
export const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
export const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** The value at fraction `p` (0..1) of sorted numbers. */
export const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;

export async function waitFor(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready within ${timeoutMs} ms`);
}

export function start(argv: string[], env: NodeJS.ProcessEnv, core: number): ChildProcess {
  const [cmd, args] = pinned(core, argv);
  const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout?.resume();
  return child;
}

/**
 * The service's own process. `BENCH_SERVICE_NODE_OPTIONS` goes on its node command line, after the
 * bin's own V8 flags (its shebang): a profile of the service alone (`--cpu-prof --cpu-prof-dir=prof`,
 * `--trace-gc-nvp`, which NODE_OPTIONS refuses), not of the CLI calls, the seeding or the load.
 * `BENCH_SERVICE_STDOUT=<file>` keeps what the service prints (its log, a GC trace) in that file.
 */
export function startService(env: NodeJS.ProcessEnv): ChildProcess {
  const extra = process.env.BENCH_SERVICE_NODE_OPTIONS?.split(/\s+/).filter(Boolean) ?? [];
  // With flags of its own, node is started directly: the shebang's variables and flags go too.
  const child = extra.length ? start(['node', ...shebangFlags(), ...extra, CLI, 'start'], { ...shebangVariables(), ...env }, 0) : start([CLI, 'start'], env, 0);
  const out = process.env.BENCH_SERVICE_STDOUT;
  if (out) child.stdout?.pipe(fs.createWriteStream(out, { flags: 'a' }));
  return child;
}

const shebang = (): string[] => (fs.readFileSync(CLI, 'utf8').split('\n', 1)[0] ?? '').split(/\s+/);
/** The flags the bin's shebang gives node (`#!/usr/bin/env -S NAME=value node --flag ...`). */
export const shebangFlags = (): string[] => shebang().filter((word) => word.startsWith('--'));
/** The variables the bin's shebang sets for node (`NAME=value`). */
export const shebangVariables = (): Record<string, string> =>
  Object.fromEntries(
    shebang()
      .filter((word) => /^[A-Z_]+=/.test(word))
      .map((word) => word.split('=', 2) as [string, string]),
  );

/** A key made by the CLI, as an operator would (this also creates the schema). */
export function createBenchKey(env: NodeJS.ProcessEnv): { key: string; accountId: string } {
  const created = spawnSync('node', [CLI, 'keys', 'create', '--plan', 'enterprise', '--prediction-plan', 'pro', '--name', 'bench', '--json'], {
    env,
    encoding: 'utf8',
  });
  if (created.status !== 0) throw new Error(`keys create failed: ${created.stderr}`);
  const { key, account_id: accountId } = JSON.parse(created.stdout) as { key: string; account_id: string };
  return { key, accountId };
}

/**
 * The service's environment for a run: production mode, warnings only, quotas on. `lifted` names
 * the windows an operator lifts with PLAN_LIMITS for the run; `distributed` adds PostgreSQL + Redis.
 */
export function serviceEnv(options: { dataDir: string; ports: [number, number]; distributed: boolean; planLimits: object }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: options.dataDir,
    MARKET_DATA_PORT: String(options.ports[0]),
    PREDICTION_PORT: String(options.ports[1]),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    PLAN_LIMITS: JSON.stringify(options.planLimits),
    ...(options.distributed
      ? { DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0' }
      : {}),
  };
}
