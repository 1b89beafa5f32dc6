/**
 * The `market-gateway` CLI run inside the test's own process: the same command tree
 * (`buildProgram().parseAsync`) and the same error report (`reportError`) as the bin's entry
 * (src/cli/main.ts), with the environment, stdout, stderr and exit code of a child's run (see
 * cli.ts's `runCli`, whose result it returns), but no Node start-up: a command takes milliseconds
 * instead of the half second to several seconds a process takes on a busy machine.
 *
 * What only a process can show stays with `runCli` (a few runs per file): the bin itself (its
 * shebang, main.ts's exit code, the built dist/), a relative DATA_DIR against the process's own
 * directory, and `start`, which exits the process.
 *
 * How: one AsyncLocalStorage holds the run's environment and output. While a run is in flight,
 * `process.stdout.write` and `process.stderr.write` send what is written from inside it to the
 * run's buffers (anything else passes through), and `process.env` reads the run's environment
 * from inside it (the test's own code reads its own). Runs go one at a time: `--verbose` is a
 * module-level switch of the CLI, which two runs in flight at once would share. Commands that the
 * tests start together therefore run one after another, each in a few milliseconds.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { reportError } from '../../src/cli/errors.js';
import { buildProgram } from '../../src/cli/program.js';
import type { CliResult } from './cli.js';
import { afterEachFile } from './each-file.js';

interface Run {
  env: NodeJS.ProcessEnv;
  stdout: string;
  stderr: string;
}

const current = new AsyncLocalStorage<Run>();

type Write = typeof process.stdout.write;

/** A write that goes to the current run's buffer when there is one, else to the real stream. */
function routed(original: Write, into: 'stdout' | 'stderr'): Write {
  return function write(this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
    const run = current.getStore();
    if (!run) return (original as (...args: unknown[]) => boolean).apply(this, [chunk, ...rest]);
    run[into] += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    const callback = rest.find((r) => typeof r === 'function') as ((error?: Error | null) => void) | undefined;
    if (callback) queueMicrotask(() => callback(null));
    return true;
  } as Write;
}

/** `process.env` as seen from inside a run: the run's own environment; outside, the file's. */
function routedEnv(own: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const target = () => current.getStore()?.env ?? own;
  return new Proxy(own, {
    get: (_t, key) => Reflect.get(target(), key),
    set: (_t, key, value) => Reflect.set(target(), key, String(value)),
    has: (_t, key) => Reflect.has(target(), key),
    deleteProperty: (_t, key) => Reflect.deleteProperty(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_t, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      // A proxy may not report as absent what its target has, nor as fixed what its target has not.
      return descriptor ? { ...descriptor, configurable: true } : undefined;
    },
  });
}

let envRouted = false;
let queue: Promise<unknown> = Promise.resolve();
// A run that never settled (its test timed out) holds up no later file on this worker.
afterEachFile(() => {
  queue = Promise.resolve();
});

/**
 * Runs the CLI with `args` (what follows `market-gateway`), the environment a child of `runCli`
 * would have (this process's minus DATABASE_URL, DEBUG and NODE_OPTIONS, LOG_LEVEL=silent, then
 * `env`), and answers as a child would: its exit code, stdout and stderr.
 */
export function runCliInProcess(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  if (args[0] === 'start' && !args.includes('--help')) throw new Error('`start` exits its process: run it with runCli or startProcess');
  if (!envRouted) {
    process.env = routedEnv(process.env);
    envRouted = true;
  }
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  delete inherited.DATABASE_URL;
  delete inherited.DEBUG;
  delete inherited.NODE_OPTIONS;
  const run: Run = { env: { ...inherited, LOG_LEVEL: 'silent', ...env }, stdout: '', stderr: '' };
  const result = queue.then(() => runOne(args, run));
  queue = result.catch(() => undefined);
  return result;
}

async function runOne(args: readonly string[], run: Run): Promise<CliResult> {
  const { stdout, stderr } = process;
  const [outWrite, errWrite] = [stdout.write, stderr.write];
  stdout.write = routed(outWrite, 'stdout');
  stderr.write = routed(errWrite, 'stderr');
  try {
    const code = await current.run(run, async () => {
      try {
        // As main.ts: argv[0] and [1] are node and the script.
        await buildProgram().parseAsync(['node', 'market-gateway', ...args]);
        return 0;
      } catch (error) {
        return reportError(error);
      }
    });
    return { code, stdout: run.stdout, stderr: run.stderr };
  } finally {
    stdout.write = outWrite;
    stderr.write = errWrite;
  }
}

export interface CliKey {
  id: string;
  key: string;
  account_id: string;
}

/** A key made by the CLI (`keys create ... --json`, in-process) in the store `env` names, as an operator makes one. */
export async function cliKey(env: Record<string, string>, ...options: string[]): Promise<CliKey> {
  const result = await runCliInProcess(['keys', 'create', ...options, '--json'], env);
  if (result.code !== 0) throw new Error(`keys create ${options.join(' ')} failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as CliKey;
}
