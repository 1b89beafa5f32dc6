/**
 * Child processes of the service started as an operator would (the built bin, or `npm start`),
 * tracked so that `killStartedProcesses` in an afterEach leaves none running whatever the outcome.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { REPO_ROOT } from './cli.js';

export interface StartedProcess {
  child: ChildProcess;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  exited: Promise<number | null>;
}

const started: { child: ChildProcess; group: boolean }[] = [];

/**
 * Starts `command` in the repository with the parent's environment minus its stores and NODE_OPTIONS, plus `env`.
 * With `group`, in a process group of its own, as a terminal runs a foreground job: a signal to
 * `-pid` reaches every process of it (npm and the server), and the cleanup kills them all.
 */
export function startProcess(command: string, args: string[], env: Record<string, string>, options: { group?: boolean } = {}): StartedProcess {
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  delete inherited.REDIS_URL;
  delete inherited.NODE_OPTIONS;
  const group = options.group ?? false;
  const child = spawn(command, args, { cwd: REPO_ROOT, env: { ...inherited, LOG_LEVEL: 'info', FEEDS: 'demo', ...env }, detached: group });
  started.push({ child, group });
  let output = '';
  child.stdout!.on('data', (d) => (output += String(d)));
  child.stderr!.on('data', (d) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export function killStartedProcesses(): void {
  for (const { child, group } of started.splice(0)) {
    if (group && child.pid !== undefined) {
      // The whole group, whether its leader is gone or not: the server may have outlived npm.
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: nothing of the group is left
      }
    } else if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
