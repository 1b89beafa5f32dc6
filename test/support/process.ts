/**
 * Child processes of the service started as an operator would (the built bin, or `npm start`), by
 * the one launcher (launch.ts): each in a process group of its own, as a terminal runs a foreground
 * job, so a signal to `-pid` reaches every process of it (npm and the server), and
 * `killStartedProcesses` in an afterEach kills them all, whatever the outcome: SIGKILL to npm alone
 * would leave the server it exec'd running.
 */
import type { ChildProcess } from 'node:child_process';
import { REPO_ROOT } from './cli.js';
import { type Launched, launch } from './launch.js';

export interface StartedProcess {
  child: ChildProcess;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  exited: Promise<number | null>;
}

const started: Launched[] = [];

/**
 * Starts `command` in the repository with the parent's environment minus its stores and NODE_OPTIONS, plus `env`,
 * always in a group of its own (`group` is accepted for the callers that ask for one explicitly).
 */
export function startProcess(command: string, args: string[], env: Record<string, string>, _options: { group?: boolean } = {}): StartedProcess {
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  delete inherited.REDIS_URL;
  delete inherited.NODE_OPTIONS;
  const launched = launch(command, args, { cwd: REPO_ROOT, env: { ...inherited, LOG_LEVEL: 'info', FEEDS: 'demo', ...env } });
  started.push(launched);
  return { child: launched.child, output: launched.output, exited: launched.exited };
}

/** The whole group of each, whether its leader is gone or not: the server may have outlived npm. */
export async function killStartedProcesses(): Promise<void> {
  await Promise.all(started.splice(0).map((launched) => launched.kill()));
}
