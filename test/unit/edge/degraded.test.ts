/**
 * A full disk under the store is a dependency failure, not a bug: 503 with Retry-After (REST) or
 * SERVICE_UNAVAILABLE (GraphQL, from the same answer), and a log line that says the disk is full.
 * The errors are real ones: SQLite past its page limit, a write to /dev/full.
 */
import fs from 'node:fs';
import { PassThrough } from 'node:stream';
import Database from 'better-sqlite3';
import { locatedError } from 'graphql';
import pg from 'pg';
import { pino } from 'pino';
import { createDegradedAnswers, diskFullReason } from '../../../src/edge/degraded.js';
import { gated } from '../../support/gates.js';

function answersWithLog() {
  const lines: { level: number; msg: string; where: string }[] = [];
  const out = new PassThrough();
  out.on('data', (chunk: Buffer) =>
    lines.push(
      ...chunk
        .toString('utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ),
  );
  return { degraded: createDegradedAnswers(pino(out)), lines };
}

/** What SQLite throws when its file can grow no more (a disk full, as far as it can tell). */
function sqliteFullError(): unknown {
  const db = new Database(':memory:');
  db.pragma('max_page_count = 8');
  db.exec('create table t (x blob)');
  try {
    for (let i = 0; i < 100; i++) db.prepare('insert into t values (?)').run(Buffer.alloc(4096));
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
  throw new Error('SQLite never filled up');
}

function enospcError(): unknown {
  try {
    fs.writeFileSync('/dev/full', 'x');
  } catch (error) {
    return error;
  }
  throw new Error('/dev/full accepted a write');
}

const linuxOnly = gated('/dev/full');

it("SQLite's SQLITE_FULL is a 503 with Retry-After, logged as a full disk", () => {
  const { degraded, lines } = answersWithLog();
  const error = sqliteFullError();
  expect((error as { code?: string }).code).toBe('SQLITE_FULL');
  expect(degraded.answerFor('rest', error)).toMatchObject({ status: 503, headers: { 'Retry-After': '1' } });
  expect(lines).toEqual([expect.objectContaining({ level: 50, where: 'rest', msg: expect.stringMatching(/disk is full/) })]);
  expect(degraded.lastDiskFull()).toEqual(expect.any(Number)); // readiness names the condition from it
});

it("PostgreSQL's disk_full (53100) is the same", () => {
  const { degraded, lines } = answersWithLog();
  const error = Object.assign(new pg.DatabaseError('could not extend file: No space left on device', 0, 'error'), { code: '53100' });
  expect(degraded.answerFor('graphql', error)).toMatchObject({ status: 503 });
  expect(lines[0]!.msg).toMatch(/disk is full/);
});

linuxOnly('a write that finds no space (ENOSPC), as the cause of another error, is the same', () => {
  const { degraded, lines } = answersWithLog();
  const error = new Error('could not write the backup', { cause: enospcError() });
  expect(degraded.answerFor('cli', error)).toMatchObject({ status: 503 });
  expect(lines[0]!.msg).toMatch(/disk is full/);
  // The CLI's message quotes what the file system said, not the wrapper.
  expect(diskFullReason(error)).toMatch(/^ENOSPC: no space left on device/);
});

it('the same when graphql-js received it as a value that is not an Error (one from another realm)', () => {
  const { degraded, lines } = answersWithLog();
  const wrapped = locatedError({ code: 'SQLITE_FULL', message: 'database or disk is full' }, undefined).originalError;
  expect(wrapped?.name).toBe('NonErrorThrown');
  expect(degraded.answerFor('graphql', wrapped)).toMatchObject({ status: 503 });
  expect(lines[0]!.msg).toMatch(/disk is full/);
});

it('a lost connection is still a 503 without the disk in its log line; a bug is not a 503 at all', () => {
  const { degraded, lines } = answersWithLog();
  expect(degraded.answerFor('rest', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toMatchObject({ status: 503 });
  expect(lines[0]).toMatchObject({ level: 40, msg: expect.not.stringMatching(/disk/) });
  expect(degraded.answerFor('rest', new TypeError('x is undefined'))).toBeUndefined();
  expect(degraded.lastDiskFull()).toBeUndefined();
  expect(diskFullReason(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBeUndefined();
});
