/**
 * Every resource a test may need that a machine may lack, and the one verdict on each. Where it is
 * missing the tests that need it are skipped, said once for the whole run by Jest's global setup;
 * with REQUIRE_SERVICES=1 (CI) the run stops there instead, naming each one missing, and a suite
 * that asks for one anyway fails naming it. No test probes for a resource on its own.
 *
 * PostgreSQL and Redis are probed over the network by the global setup, which leaves its verdict in
 * the environment the workers inherit (MGW_TEST_NO_POSTGRES, MGW_TEST_NO_REDIS); the rest are probed
 * here. Run as a script (`node --experimental-strip-types test/support/gates.ts`) it prints what is
 * missing, one line each, and exits 1 when anything is: the global setup runs it that way.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The whole upstream recordings, beside the clone (CI has them there). */
export const RECORDINGS = path.resolve(ROOT, '../shared/fixtures/upstream');

/** Debian's chromium, or CHROMIUM_PATH. */
/** The labelled pairs of two venues' markets (../shared/links), for the market links' judge. */
export const LINKS_DEV_SET = path.resolve(ROOT, '../shared/links/pairs-dev.jsonl');
export const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && fs.existsSync(p));

/** The PostgreSQL binaries (initdb, pg_ctl) for a cluster a test owns. */
export const POSTGRES_BIN = (() => {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const version = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return version ? path.join(root, version, 'bin') : undefined;
})();

/** A small file system of one's own to fill, instead of mounting a tmpfs as root. */
export const SMALL_FS = process.env.MGW_TEST_SMALL_FS;

const runs = (file: string, args: string[]) => spawnSync(file, args, { stdio: 'ignore' }).status === 0;

/** Each gate: what it is, and why it is missing (undefined when present). */
const GATES = {
  postgres: { what: 'PostgreSQL', missing: () => process.env.MGW_TEST_NO_POSTGRES || undefined },
  redis: { what: 'Redis', missing: () => process.env.MGW_TEST_NO_REDIS || undefined },
  chromium: { what: 'Chromium', missing: () => (CHROMIUM ? undefined : 'no chromium (apt-get install chromium, or set CHROMIUM_PATH)') },
  recordings: {
    what: 'the whole upstream recordings',
    missing: () => (fs.existsSync(RECORDINGS) ? undefined : `${RECORDINGS} is absent (the trimmed excerpts in test/fixtures/recorded still run)`),
  },
  'links dev set': {
    what: 'the labelled market-link pairs',
    missing: () => (fs.existsSync(LINKS_DEV_SET) ? undefined : `${LINKS_DEV_SET} is absent (the judge's tests on real texts in test/unit/links still run)`),
  },
  'disk to fill': {
    what: 'a disk to fill',
    missing: () => {
      if (SMALL_FS) return fs.existsSync(SMALL_FS) ? undefined : `MGW_TEST_SMALL_FS=${SMALL_FS} does not exist`;
      if (process.getuid?.() !== 0) return 'not root, so no tmpfs can be mounted (or set MGW_TEST_SMALL_FS to a small file system of your own)';
      return runs('mount', ['--version']) ? undefined : 'no mount command';
    },
  },
  prlimit: {
    what: 'prlimit',
    missing: () => (runs('prlimit', ['--version']) && fs.existsSync('/proc/self/limits') ? undefined : 'no prlimit or /proc here (util-linux, Linux)'),
  },
  '/dev/full': { what: '/dev/full', missing: () => (fs.existsSync('/dev/full') ? undefined : 'no /dev/full here (Linux)') },
  ipv6: {
    what: 'IPv6 loopback',
    missing: () =>
      Object.values(os.networkInterfaces())
        .flat()
        .some((a) => a?.family === 'IPv6' && a.address === '::1')
        ? undefined
        : 'no ::1 on any interface (IPv6 disabled)',
  },
  initdb: { what: 'initdb', missing: () => (POSTGRES_BIN ? undefined : 'no initdb under /usr/lib/postgresql/*/bin (apt-get install postgresql)') },
} satisfies Record<string, { what: string; missing: () => string | undefined }>;

export type GateName = keyof typeof GATES;

const verdicts = new Map<GateName, string | undefined>();
const missingOf = (name: GateName): string | undefined => {
  if (!verdicts.has(name)) verdicts.set(name, GATES[name].missing());
  return verdicts.get(name);
};

/** Every gate's problem, `name: why` (the network ones as the global setup left them). */
export function missingGates(names: readonly GateName[] = Object.keys(GATES) as GateName[]): string[] {
  return names.flatMap((name) => {
    const why = missingOf(name);
    return why === undefined ? [] : [`${GATES[name].what}: ${why}`];
  });
}

/**
 * Whether every named resource is here. Missing, with REQUIRE_SERVICES=1, it throws naming them:
 * the suite fails, never skips, where CI runs.
 */
export function present(...names: GateName[]): boolean {
  const missing = missingGates(names);
  if (missing.length === 0) return true;
  if (process.env.REQUIRE_SERVICES === '1') throw new Error(`REQUIRE_SERVICES=1 but missing: ${missing.join('; ')}`);
  return false;
}

/** `it` where every named resource is here, `it.skip` elsewhere (the global setup said so once). */
export function gated(...names: GateName[]): jest.It {
  return present(...names) ? it : it.skip;
}

/** `describe` likewise. */
export function gatedDescribe(...names: GateName[]): jest.Describe {
  return present(...names) ? describe : describe.skip;
}

// As a script: what is missing, one line each; exit 1 when anything is.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const missing = missingGates();
  for (const line of missing) process.stdout.write(`${line}\n`);
  process.exitCode = missing.length > 0 ? 1 : 0;
}
