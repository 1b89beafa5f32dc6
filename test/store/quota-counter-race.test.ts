/**
 * Day counts on PostgreSQL: the first metered request of each instance makes the counts' table
 * (rate-limiter-flexible's `CREATE TABLE IF NOT EXISTS`). Run by two instances at the same moment,
 * PostgreSQL answers one of them 42710 or 42P07 now and then (6 of 800 statements in a loop here),
 * which the library does not expect; that request was answered 500. The counter is made anyway.
 */
import pg from 'pg';
import { postgresCounter } from '../../src/quota/counters.js';
import { createPgSchema, postgresAvailable } from '../support/engines.js';

const maybe = (await postgresAvailable()) ? it : it.skip;

/**
 * A pool on which the first CREATE TABLE runs, and is then answered as PostgreSQL answers the
 * instance that lost the race (the table made, by the other one).
 */
function poolLosingTheRace(pool: pg.Pool, code: string): pg.Pool {
  let lost = false;
  return new Proxy(pool, {
    get(target, name, receiver) {
      if (name !== 'query') return Reflect.get(target, name, receiver);
      return async (...args: Parameters<pg.Pool['query']>) => {
        const result = await (target.query as (...a: unknown[]) => Promise<unknown>)(...args);
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
        if (!lost && text?.includes('CREATE TABLE')) {
          lost = true;
          throw Object.assign(new Error('duplicate key value violates unique constraint'), { code });
        }
        return result;
      };
    },
  });
}

const ACCT_1 = { owner: 'acct_1', window: 1 };

for (const code of ['42710', '42P07']) {
  maybe(`a counter is made when its table's creation is answered ${code} (made meanwhile by another instance), and it counts`, async () => {
    const schema = await createPgSchema();
    const pool = new pg.Pool({ connectionString: schema.url, max: 2 });
    try {
      const counter = await postgresCounter(poolLosingTheRace(pool, code), 'day:test', 3);
      expect(await counter.consume(ACCT_1, 60)).toEqual({ allowed: true, consumed: 1 });
      expect(await counter.consume(ACCT_1, 60)).toEqual({ allowed: true, consumed: 2 });
      expect(await counter.spent(ACCT_1)).toBe(2);
    } finally {
      await pool.end();
      await schema.drop();
    }
  });
}

maybe('any other failure to make the table is still an error', async () => {
  const schema = await createPgSchema();
  const pool = new pg.Pool({ connectionString: schema.url, max: 2 });
  try {
    await expect(postgresCounter(poolLosingTheRace(pool, '42501'), 'day:test', 3)).rejects.toMatchObject({ code: '42501' });
  } finally {
    await pool.end();
    await schema.drop();
  }
});
