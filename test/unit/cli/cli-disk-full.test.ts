/**
 * A CLI command that meets a full disk says so in one line naming where the store lives: the data
 * directory for the embedded store, the database server for PostgreSQL. The failure is
 * injected into the command's work; the real one, on a filled tmpfs, is in disk-full.test.ts.
 */
import { ModuleMocker } from 'jest-mock';
import pg from 'pg';
import { withStore } from '../../../src/cli/context.js';
import { CliError } from '../../../src/cli/errors.js';
import { describeOnEachEngine } from '../../support/store-suite.js';

const mocks = new ModuleMocker(globalThis);

const DISK_FULL = {
  sqlite: () => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
  postgres: () => Object.assign(new pg.DatabaseError('could not extend file "base/16384/2619": No space left on device', 0, 'error'), { code: '53100' }),
};

const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
beforeEach(() => {
  mocks.spyOn(process.stderr, 'write').mockImplementation(() => true); // the command's `store: …` line
});
afterEach(() => {
  mocks.restoreAllMocks();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describeOnEachEngine('a full disk in a CLI command', (suite) => {
  const { engine } = suite;
  suite.maybe('is one line naming where the store lives; any other failure is left as it was', async () => {
    const { target } = suite;
    process.env.DATA_DIR = target.dataDir;
    if (target.databaseUrl) process.env.DATABASE_URL = target.databaseUrl;
    else delete process.env.DATABASE_URL;

    const failure = await withStore(async () => {
      throw new Error('could not create the key', { cause: DISK_FULL[engine.name]() });
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CliError);
    expect((failure as CliError).message).toBe(
      engine.name === 'sqlite'
        ? `the disk holding the data directory ${target.dataDir} is full (${DISK_FULL[engine.name]().message}); free space and retry`
        : `the disk of the database server (PostgreSQL 127.0.0.1:5432/test) is full (${DISK_FULL[engine.name]().message}); free space and retry`,
    );

    const bug = new TypeError('x is undefined');
    await expect(
      withStore(async () => {
        throw bug;
      }),
    ).rejects.toBe(bug);
  });
});
