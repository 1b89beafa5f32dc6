/**
 * Writing usage records on each engine: a write adds to the rows (several instances add
 * their own counts), in parts larger than one INSERT, and on SQLite, where the counts skip Kysely,
 * a write never joins a transaction that is open on the connection.
 */
import { describeOnEachEngine } from '../support/store-suite.js';
import type { UsageDelta } from '../../src/store/usage.js';

const T0 = Date.UTC(2026, 10, 28, 12);

describeOnEachEngine('usage records written', (suite) => {
  const { maybe } = suite;
  let n = 0;
  const delta = (input: Partial<UsageDelta> = {}): UsageDelta => ({
    day: '2026-11-28',
    accountId: 'acct_usage',
    keyId: `key_usage_${++n}`,
    listener: 'A',
    route: 'A GET /api/v1/markets',
    requests: 1,
    lastAt: T0,
    ...input,
  });
  const byKey = async (accountId: string) =>
    Object.fromEntries(
      (await suite.store.usage.report({ sinceDay: '2026-11-28', accountId }, 'key')).map((g) => [g.keyId, { requests: g.requests, lastAt: g.lastAt }]),
    );

  maybe('adds to a row already written, keeping its latest use, and writes 1 200 new rows in one call', async () => {
    const accountId = `acct_${suite.engine.name}_sum`;
    await suite.store.usage.add([delta({ accountId, keyId: 'k1', requests: 3, lastAt: T0 + 5 })]);
    const many = Array.from({ length: 1_200 }, (_, i) => delta({ accountId, keyId: `many_${i}`, requests: i + 1 }));
    await suite.store.usage.add([delta({ accountId, keyId: 'k1', requests: 2, lastAt: T0 + 1 }), ...many]);

    const rows = await byKey(accountId);
    expect(rows.k1).toEqual({ requests: 5, lastAt: T0 + 5 });
    expect(Object.keys(rows)).toHaveLength(1_201);
    expect(rows.many_0).toEqual({ requests: 1, lastAt: T0 });
    expect(rows.many_1199).toEqual({ requests: 1_200, lastAt: T0 });
  });

  maybe('a write made while a transaction is open on the connection outlives its rollback', async () => {
    const accountId = `acct_${suite.engine.name}_rollback`;
    let written: Promise<void> | undefined;
    await expect(
      suite.store.connection.db.transaction().execute(async (trx) => {
        await trx.selectFrom('accounts').select('id').execute(); // the transaction is open on the connection
        written = suite.store.usage.add([delta({ accountId, keyId: 'kept', requests: 7 })]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await written;
    expect(await byKey(accountId)).toEqual({ kept: { requests: 7, lastAt: T0 } });
  });
});
