/** Runs the `market-gateway` CLI from source in a child process, as an operator would. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The child ignores the parent's DATABASE_URL and DEBUG (SQLite in DATA_DIR) unless `env` sets them. */
export function runCli(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  delete inherited.DATABASE_URL;
  delete inherited.DEBUG;
  delete inherited.NODE_OPTIONS;
  const childEnv: NodeJS.ProcessEnv = { ...inherited, LOG_LEVEL: 'silent', ...env };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', ...args],
      { cwd: REPO_ROOT, env: childEnv, timeout: 20_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
