/**
 * A PostgreSQL server of the test's own (initdb in a temp dir, its own port), so a test can stop,
 * hang (SIGSTOP) and restart the database under a running service without touching the shared one.
 * As root, the server runs as the `postgres` user, as PostgreSQL requires.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { POSTGRES_BIN, present } from './gates.js';
import { freePort, waitForPort } from './ports.js';

const BIN = POSTGRES_BIN;

/** Whether initdb is installed; with REQUIRE_SERVICES=1 (CI) its absence fails instead of skipping (gates.ts). */
export function canOwnPostgres(): boolean {
  return present('initdb');
}

export interface OwnedPostgres {
  url: string;
  /** pg_ctl stop -m immediate: every connection dropped at once, as in a crash. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** SIGSTOP to the postmaster and every backend: connections open, nothing answers. */
  hang(): void;
  resume(): void;
  destroy(): Promise<void>;
}

export async function ownPostgres(): Promise<OwnedPostgres> {
  if (!BIN) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot)
    fs.chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), Number(execFileSync('id', ['-g', 'postgres']).toString().trim()));
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(BIN!, cmd), ...args]] : [path.join(BIN!, cmd), args];
    const result = spawnSync(file, argv, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${cmd} failed: ${result.error?.message ?? result.stderr}`);
  };
  const port = await freePort();
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const pids = () => {
    const main = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = spawnSync('pgrep', ['-P', String(main)], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean)
      .map(Number);
    return [main, ...children];
  };
  const owned: OwnedPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
      await waitForPort(port, true);
    },
    async stop() {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      await waitForPort(port, false);
    },
    hang: () => {
      for (const pid of pids()) process.kill(pid, 'SIGSTOP');
    },
    resume: () => {
      for (const pid of pids()) process.kill(pid, 'SIGCONT');
    },
    async destroy() {
      try {
        owned.resume();
        await owned.stop();
      } catch {
        /* already down */
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await owned.start();
  return owned;
}
