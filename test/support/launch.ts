/**
 * The one launcher of the tests' long-lived child processes (the service as an operator starts it,
 * `npm start`, a redis-server of a test's own): each starts as the leader of a process group of its
 * own, and the whole group is killed (SIGKILL to -pid) on any outcome: the caller's stop, a start-up
 * timeout, the end of every test file (`afterEachFile`), the worker's exit. What npm or a shell exec'd or spawned goes with it: nothing is left running.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterEachFile } from './each-file.js';

export interface Launched {
  child: ChildProcess;
  /** stdout and stderr so far, interleaved (empty with `quiet`). */
  output(): string;
  /** stdout alone so far. */
  stdout(): string;
  /** The leader's exit code (null when a signal ended it, or it never started), once it is gone. */
  exited: Promise<number | null>;
  /** SIGKILL to every process of the group, whether its leader is gone or not; resolves once the leader is. */
  kill(): Promise<void>;
}

/** One set per worker (its test files run one after another), with one exit listener. */
const REGISTRY = Symbol.for('market-gateway.test.launched');
const worker = process as NodeJS.Process & { [REGISTRY]?: Set<Launched> };
function workerRegistry(): Set<Launched> {
  const existing = worker[REGISTRY];
  if (existing) return existing;
  const set = new Set<Launched>();
  // Should the worker die before a file's afterAll: kill what is left as it exits.
  process.once('exit', () => {
    for (const launched of set) killGroup(launched.child);
  });
  worker[REGISTRY] = set;
  return set;
}
const live = workerRegistry();

/** Whether a process of this pid exists (signal 0 checks without sending). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing of the group is left.
  }
}

export function launch(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; quiet?: boolean } = {}): Launched {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: options.quiet ? 'ignore' : 'pipe' });
  let output = '';
  let stdout = '';
  child.stdout?.on('data', (d) => {
    output += String(d);
    stdout += String(d);
  });
  child.stderr?.on('data', (d) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', (error) => {
      output += `\n[test] ${command} did not start: ${error.message}`;
      resolve(null);
    });
  });
  const launched: Launched = {
    child,
    output: () => output,
    stdout: () => stdout,
    exited,
    async kill() {
      killGroup(child);
      live.delete(launched);
      await exited;
    },
  };
  live.add(launched);
  return launched;
}

/** Kills every group this file launched that is still tracked. */
export async function killAllLaunched(): Promise<void> {
  await Promise.all([...live].map((launched) => launched.kill()));
}

// Whatever the outcome, at the end of every test file.
afterEachFile(killAllLaunched);
