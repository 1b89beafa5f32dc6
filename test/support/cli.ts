/** Runs the `market-gateway` CLI (the built bin, brought up to date by Jest's global setup) in a child process, as an operator would. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The bin as installed (`market-gateway`), built from src/. */
export const CLI_MAIN = path.join(REPO_ROOT, 'dist/src/cli/main.js');
/** Generous: a command takes well under a second on an idle machine; a busy one is slower, a hung one is killed and says so. */
const CLI_TIMEOUT_MS = 60_000;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The child ignores the parent's DATABASE_URL and DEBUG (SQLite in DATA_DIR) unless `env` sets them.
 * `signal` kills it when aborted (a suite's afterAll, whatever the outcome).
 */
export function runCli(args: readonly string[], env: Record<string, string>, options: { signal?: AbortSignal } = {}): Promise<CliResult> {
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  delete inherited.DATABASE_URL;
  delete inherited.DEBUG;
  delete inherited.NODE_OPTIONS;
  const childEnv: NodeJS.ProcessEnv = { ...inherited, LOG_LEVEL: 'silent', ...env };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI_MAIN, ...args],
      { cwd: REPO_ROOT, env: childEnv, timeout: CLI_TIMEOUT_MS, killSignal: 'SIGKILL', signal: options.signal },
      (error, stdout, stderr) => {
        if (error?.killed) {
          resolve({ code: -1, stdout, stderr: `${stderr}\n[test] killed: no exit within ${CLI_TIMEOUT_MS} ms (market-gateway ${args.join(' ')})` });
          return;
        }
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
