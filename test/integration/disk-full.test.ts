/**
 * The embedded store on a disk that fills up (a 16 MB tmpfs, filled by another file): writes are
 * refused as a dependency failure (SERVICE_UNAVAILABLE, a log line that says the disk is full),
 * never as an internal error; what was acknowledged stays; unmetered reads answer, metered ones are
 * refused 503 (their day count cannot be kept, and nothing is admitted unmetered); /ready says
 * `disk_full` with the data directory; a CLI write says the data directory's disk is full in one
 * line; once space is freed, all go through again and /ready is ready, without a restart. Needs
 * root to mount (CI runs as root) or MGW_TEST_SMALL_FS (gates.ts); skipped with a message elsewhere.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../support/cli.js';
import { gated, SMALL_FS } from '../support/gates.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { CREATE_PRICE_ALERT as CREATE } from '../support/graphql-call.js';

const maybe = gated('disk to fill');

/**
 * The small file system this test fills: a folder on MGW_TEST_SMALL_FS, or a 16 MB tmpfs mounted
 * (as root) when the test starts, never when the file is read (a filtered-out run mounts nothing).
 */
let mountPoint: string | undefined;
let mounted = false;
function smallFileSystem(): string {
  const dir = fs.mkdtempSync(path.join(SMALL_FS ?? os.tmpdir(), 'mgw-full-'));
  mountPoint = dir;
  if (SMALL_FS) return dir;
  const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', dir], { encoding: 'utf8' });
  if (mount.status !== 0) throw new Error(`cannot mount a tmpfs on ${dir}: ${mount.stderr}`);
  mounted = true;
  return dir;
}

let t: TestService | undefined;
const logLines: string[] = [];
const children = new AbortController(); // the CLI's processes, killed whatever the outcome
afterAll(async () => {
  children.abort();
  await t?.close();
  // A process still holding a file there would make umount fail: detach it then (-l), never leave it mounted.
  if (mounted && spawnSync('umount', [mountPoint!]).status !== 0) spawnSync('umount', ['-l', mountPoint!]);
  if (mountPoint) fs.rmSync(mountPoint, { recursive: true, force: true });
});

/** Fills the file system with one file until it refuses a byte more. */
function fill(file: string): void {
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(64 * 1024);
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(fd);
  }
}

maybe(
  'writes on a full disk are SERVICE_UNAVAILABLE and logged as a full disk; acknowledged ones stay; metered reads 503; /ready and the CLI name the data directory; freed space heals',
  async () => {
    const small = smallFileSystem();
    const dataDir = path.join(small, 'data');
    fs.mkdirSync(dataDir);
    t = await startTestService({ dataDir, env: { LOG_LEVEL: 'warn' }, logSink: { write: (line) => void logLines.push(line) } });
    const { key } = await t.createKey('enterprise'); // unmetered: the disk, not the quota, must say no
    const metered = await t.createKey('pro');
    const create = (i: number) =>
      t!.a
        .post('/graphql')
        .set(bearer(key))
        .send({ query: CREATE, variables: { in: { symbol: 'BTC/USD', kind: 'PRICE_ABOVE', threshold: 1e9 + i } } });

    // Acknowledged just before the disk fills, so still in the WAL, whose checkpoint (on a thread of
    // its own, once a second) then fails for want of space; it may also take the last slack the
    // file system had left, so none of the writes after the fill need get through.
    const acknowledged: string[] = [];
    for (let i = 0; i < 3; i++) acknowledged.push((await create(-i - 1)).body.data.createPriceAlert.id);
    fill(path.join(small, 'filler'));
    /**
     * Alerts created until one is refused: the refusal. A checkpoint that completes lets SQLite
     * write its WAL file again from the start, space the file system no longer counts as free; each
     * check below that needs a write to fail first uses that space up (onFullDisk).
     */
    let sent = 0;
    const writeUntilRefused = async () => {
      for (let i = 0; i < 2_000; i++) {
        const res = await create(sent++);
        if (!res.body.data?.createPriceAlert) return { code: res.body.errors?.[0]?.extensions?.code as string | undefined };
        acknowledged.push(res.body.data.createPriceAlert.id);
      }
      return undefined;
    };
    /**
     * `attempt` on a full disk. A checkpoint completing between the refused write and `attempt`
     * gives the WAL room again, which `attempt` may use (and then succeeds, as it should): until
     * `attempt` is refused (5 tries at most), the disk is filled again before it.
     */
    const onFullDisk = async <T>(attempt: () => Promise<T>, refused: (result: T) => boolean): Promise<T> => {
      let result = await writeUntilRefused().then(attempt);
      for (let tries = 1; tries < 5 && !refused(result); tries++) result = await writeUntilRefused().then(attempt);
      return result;
    };
    const refusal = await writeUntilRefused();
    // A resolver's error: the operation answers, with the code (SQLite rolled back the write itself).
    expect({ ...refusal, log: refusal?.code === 'SERVICE_UNAVAILABLE' ? 'ok' : logLines.slice(-2) }).toEqual({ code: 'SERVICE_UNAVAILABLE', log: 'ok' });
    expect(logLines.some((line) => /disk is full/.test(line))).toBe(true);
    expect(logLines.some((line) => /"level":50.*graphql resolver failed/.test(line))).toBe(false); // not an internal error

    // Reads still answer, and every acknowledged alert is there.
    expect((await t.a.get('/api/v1/markets?limit=1').set(bearer(key))).status).toBe(200);
    // A metered key's day count cannot be kept: refused as a dependency failure, never admitted
    // unmetered (as when Redis is down), in the envelope with Retry-After.
    const refusedRead = await onFullDisk(
      () => t!.a.get('/api/v1/markets?limit=1').set(bearer(metered.key)),
      (res) => res.status !== 200,
    );
    expect(refusedRead.status).toBe(503);
    expect(refusedRead.headers['retry-after']).toBe('1');
    expect(refusedRead.body).toEqual({ success: false, error: { code: 503, type: 'service_unavailable', message: expect.any(String) } });
    const listed = await t.a.post('/graphql').set(bearer(key)).send({ query: '{ priceAlerts { items { id } total } }' });
    const ids = (listed.body.data.priceAlerts.items as { id: string }[]).map((a) => a.id);
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(ids).toEqual(expect.arrayContaining(acknowledged));

    // /ready names the condition and where, on both listeners.
    for (const agent of [t.a, t.b]) {
      const ready = await agent.get('/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({
        status: 'not_ready',
        checks: { store: 'ok', storage: 'disk_full' },
        storage: { condition: 'disk_full', where: dataDir, freeBytes: expect.any(Number) },
      });
    }

    // A CLI write: one line naming the data directory, no stack, non-zero exit.
    const cli = await onFullDisk(
      () => runCli(['keys', 'create', '--json'], { DATA_DIR: dataDir }, { signal: children.signal }),
      (result) => result.code !== 0,
    );
    expect(cli).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: the disk holding the data directory ${dataDir} is full (database or disk is full); free space and retry\n`,
    });

    fs.rmSync(path.join(small, 'filler'));
    const readyAgain = await t.a.get('/ready'); // no write needed to notice: a look at the free space
    expect({ status: readyAgain.status, checks: readyAgain.body.checks, storage: readyAgain.body.storage }).toEqual({
      status: 200,
      checks: expect.objectContaining({ storage: 'ok', data: 'fresh' }),
      storage: undefined,
    });
    const healed = await create(99_999);
    expect(healed.body.data?.createPriceAlert?.id).toEqual(expect.any(String));
    expect((await t.a.get('/api/v1/markets?limit=1').set(bearer(metered.key))).status).toBe(200);
    expect((await runCli(['keys', 'create', '--json'], { DATA_DIR: dataDir }, { signal: children.signal })).code).toBe(0);
  },
  60_000,
);
