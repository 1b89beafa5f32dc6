/**
 * The windows and the durable window counters (src/quota/counters.ts): a window is fixed and aligned
 * to the UTC clock (the minute at second 0, the day at 00:00 UTC); rate-limiter-flexible on SQLite as the day
 * quota uses it (a refusal is an answer, a store failure an error), the pruning of expired counts,
 * and PostgreSQL's table creation raced by another instance, with a stand-in pool.
 */
import { pendingTimers, fakeTheClock, realClock } from '../../support/fake-timers.js';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import type pg from 'pg';
import { deleteExpiredCounts, keyText, postgresCounter, sqliteCounter, windowAt } from '../../../src/quota/counters.js';

describe('windowAt', () => {
  it('the minute and the day of a given instant', () => {
    const at = Date.UTC(2026, 10, 24, 23, 59, 30, 250);
    expect(windowAt('minute', at).endsAt).toBe(Date.UTC(2026, 10, 24, 23, 60));
    expect(windowAt('day', at).endsAt).toBe(Date.UTC(2026, 10, 25));
    expect(windowAt('day', Date.UTC(2026, 10, 25)).endsAt).toBe(Date.UTC(2026, 10, 26)); // midnight opens the next day
  });

  it('every instant is in exactly one window: consecutive indexes, each ending where the next begins', () => {
    fc.assert(
      fc.property(fc.constantFrom('minute' as const, 'day' as const), fc.integer({ min: 0, max: 4_102_444_800_000 }), (name, at) => {
        const here = windowAt(name, at);
        const size = name === 'minute' ? 60_000 : 86_400_000;
        expect(here.endsAt - size).toBeLessThanOrEqual(at);
        expect(at).toBeLessThan(here.endsAt);
        expect(here.endsAt % size).toBe(0);
        expect(windowAt(name, here.endsAt).index).toBe(here.index + 1);
        expect(windowAt(name, here.endsAt - 1).index).toBe(here.index);
      }),
      { endOnFailure: true },
    );
  });
});

describe('on SQLite', () => {
  it('counts up to the limit, then refuses while still counting; a refund gives one back; keys apart by owner and window', async () => {
    const db = new Database(':memory:');
    try {
      const counter = await sqliteCounter(db, 'q_test_day_2', 2);
      const key = { owner: 'acct_1', window: 20_416 };
      expect(await counter.spent(key)).toBe(0);
      expect(await counter.consume(key, 3_600)).toEqual({ allowed: true, consumed: 1 });
      expect(await counter.consume(key, 3_600)).toEqual({ allowed: true, consumed: 2 });
      expect(await counter.consume(key, 3_600)).toEqual({ allowed: false, consumed: 3 });
      expect(await counter.spent(key)).toBe(3);
      await counter.refund(key, 3_600);
      expect(await counter.spent(key)).toBe(2);
      expect(await counter.consume({ owner: 'acct_2', window: 20_416 }, 3_600)).toEqual({ allowed: true, consumed: 1 });
      expect(await counter.consume({ owner: 'acct_1', window: 20_417 }, 3_600)).toEqual({ allowed: true, consumed: 1 });
      // Another limit is another counter: its own prefix, its own counts.
      const other = await sqliteCounter(db, 'q_test_day_5', 5);
      expect(await other.spent(key)).toBe(0);
    } finally {
      db.close();
    }
  });

  it('a count key is the owner and the window index', () => {
    expect(keyText({ owner: 'acct_1', window: 20_416 })).toBe('acct_1:20416');
  });

  it('a count lives its TTL', async () => {
    const db = new Database(':memory:');
    try {
      const counter = await sqliteCounter(db, 'q_ttl', 10);
      await counter.consume({ owner: 'a', window: 1 }, 3_600);
      const [row] = db.prepare('SELECT key, expire FROM quota_counts').all() as { key: string; expire: number }[];
      expect(row!.key).toBe('q_ttl:a:1');
      // Within a minute of an hour from now, whatever the machine's speed.
      expect(Math.abs(row!.expire - (Date.now() + 3_600_000))).toBeLessThan(60_000);
    } finally {
      db.close();
    }
  });

  it('a store that fails is an error, never a refusal', async () => {
    const db = new Database(':memory:');
    const counter = await sqliteCounter(db, 'q_closed', 10);
    db.close();
    await expect(counter.consume({ owner: 'a', window: 1 }, 60)).rejects.toThrow(/not open/);
  });
});

it("the limiters keep no timer of their own: expired counts are deleteExpiredCounts' work (a timer would outlive a closed store)", async () => {
  fakeTheClock();
  const db = new Database(':memory:');
  try {
    await sqliteCounter(db, 'q_timers', 10);
    class Pool {
      async query() {
        return { rows: [] };
      }
    }
    await postgresCounter(new Pool() as unknown as pg.Pool, 'q_timers', 10);
    expect(pendingTimers()).toBe(0);
  } finally {
    db.close();
    realClock();
  }
});

describe('deleteExpiredCounts', () => {
  it('deletes the counts that expired before the given time, keeps the others', async () => {
    const db = new Database(':memory:');
    try {
      await sqliteCounter(db, 'q_prune', 10);
      const insert = db.prepare('INSERT INTO quota_counts (key, points, expire) VALUES (?, 1, ?)');
      insert.run('old', 1_000);
      insert.run('edge', 2_000);
      insert.run('new', 3_000);
      await deleteExpiredCounts({ sqlite: db, pgPool: undefined } as never, 2_000);
      expect((db.prepare('SELECT key FROM quota_counts ORDER BY key').all() as { key: string }[]).map((r) => r.key)).toEqual(['edge', 'new']);
    } finally {
      db.close();
    }
  });

  it('leaves alone a store without counts yet, a closed one, or a failing PostgreSQL', async () => {
    const fresh = new Database(':memory:');
    await expect(deleteExpiredCounts({ sqlite: fresh, pgPool: undefined } as never, 1)).resolves.toBeUndefined();
    fresh.close();
    await expect(deleteExpiredCounts({ sqlite: fresh, pgPool: undefined } as never, 1)).resolves.toBeUndefined();
    const failing = { query: async () => Promise.reject(new Error('relation "quota_counts" does not exist')) };
    await expect(deleteExpiredCounts({ sqlite: undefined, pgPool: failing } as never, 1)).resolves.toBeUndefined();
  });

  it('on PostgreSQL, one DELETE with the time as a parameter; not on a SQLite file that is closed', async () => {
    const queries: [string, unknown[]][] = [];
    const pool = { query: async (text: string, values: unknown[]) => void queries.push([text, values]) };
    await deleteExpiredCounts({ sqlite: undefined, pgPool: pool } as never, 1_234);
    expect(queries).toEqual([['DELETE FROM "quota_counts" WHERE expire < $1', [1_234]]]);
    const closed = new Database(':memory:');
    closed.close();
    await deleteExpiredCounts({ sqlite: closed, pgPool: pool } as never, 5);
    expect(queries).toHaveLength(2); // a closed SQLite file: the pool is the store
  });
});

describe('postgresCounter', () => {
  /** A stand-in for pg's Pool (rate-limiter-flexible knows a pool by its class name) whose CREATE TABLE fails with these codes in turn. */
  function poolFailingCreate(...codes: string[]) {
    const statements: string[] = [];
    class Pool {
      async query(q: { text: string }) {
        statements.push(q.text.trim().split(/\s+/).slice(0, 3).join(' '));
        const code = codes.shift();
        if (code) throw Object.assign(new Error(`create failed (${code})`), { code });
        return { rows: [] };
      }
    }
    return { pool: new Pool() as unknown as pg.Pool, statements };
  }

  it.each(['42710', '42P07'])('another instance creating the table at the same moment (%s): asked again, and created', async (code) => {
    const { pool, statements } = poolFailingCreate(code);
    const counter = await postgresCounter(pool, 'q_pg', 10);
    expect(typeof counter.consume).toBe('function');
    expect(statements).toEqual(['CREATE TABLE IF', 'CREATE TABLE IF']);
  });

  it('any other failure is thrown, not retried', async () => {
    const { pool, statements } = poolFailingCreate('28P01');
    await expect(postgresCounter(pool, 'q_pg', 10)).rejects.toMatchObject({ code: '28P01' });
    expect(statements).toHaveLength(1);
    // An error without a code (a dropped connection) is not a race either.
    class Pool {
      async query() {
        throw new Error('Connection terminated unexpectedly');
      }
    }
    await expect(postgresCounter(new Pool() as unknown as pg.Pool, 'q_pg', 10)).rejects.toThrow('Connection terminated');
  });

  it('a second race is an error: asked again once only', async () => {
    const { pool, statements } = poolFailingCreate('42P07', '42P07');
    await expect(postgresCounter(pool, 'q_pg', 10)).rejects.toMatchObject({ code: '42P07' });
    expect(statements).toHaveLength(2);
  });
});
