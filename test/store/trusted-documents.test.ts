/** Trusted documents on SQLite and PostgreSQL: each load replaces the manifest whole and bumps its version, in one transaction. */
import { createHash } from 'node:crypto';
import type { TrustedDocument } from '../../src/domain/trusted-documents.js';
import { createStore, openStore } from '../../src/store/index.js';
import { describeOnEachEngine } from '../support/store-suite.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const doc = (name: string, extra: Partial<TrustedDocument> = {}): TrustedDocument => {
  const body = `query ${name} { viewer { accountId } }`;
  return { id: sha256(body), body, name, type: 'query', ...extra };
};

describeOnEachEngine('trusted documents', (suite) => {
  const { maybe } = suite;
  const repo = () => suite.store.trustedDocuments;

  maybe('starts empty at version 0', async () => {
    expect(await repo().version()).toBe(0);
    expect(await repo().list()).toEqual([]);
    expect(await repo().all()).toEqual([]);
  });

  maybe('a load replaces the manifest whole and bumps the version; list has no texts, all has them', async () => {
    const first = [doc('Markets'), doc('Me'), doc('Brief')];
    expect(await repo().replaceAll(first, 1_000)).toEqual({ count: 3, replaced: 0, version: 1 });
    expect(await repo().version()).toBe(1);
    expect(await repo().list()).toEqual(['Brief', 'Markets', 'Me'].map((n) => ({ id: doc(n).id, name: n, type: 'query', loadedAt: 1_000 })));

    // One kept, one new, one unnamed (graphql-codegen gives no names): the others are gone.
    const unnamed = { id: sha256('{ viewer { name } }'), body: '{ viewer { name } }' };
    const second = [doc('Me'), doc('Alerts', { type: 'subscription' }), unnamed];
    expect(await repo().replaceAll(second, 2_000)).toEqual({ count: 3, replaced: 3, version: 2 });
    expect(await repo().version()).toBe(2);
    expect(await repo().all()).toEqual([...second].sort((a, b) => a.id.localeCompare(b.id)));
    expect((await repo().list()).map((d) => [d.name, d.type, d.loadedAt])).toEqual([
      [null, null, 2_000],
      ['Alerts', 'subscription', 2_000],
      ['Me', 'query', 2_000],
    ]);

    // Another process (the CLI) loading is seen by this one's next poll.
    const other = createStore(await openStore(suite.target));
    try {
      await other.trustedDocuments.replaceAll([doc('Me')], 3_000);
      expect(await repo().version()).toBe(3);
      expect((await repo().all()).map((d) => d.name)).toEqual(['Me']);
    } finally {
      await other.connection.close();
    }
  });

  maybe('a load that fails changes nothing', async () => {
    const before = { version: await repo().version(), all: await repo().all() };
    await expect(repo().replaceAll([doc('Markets'), doc('Markets')], 4_000)).rejects.toThrow();
    expect(await repo().version()).toBe(before.version);
    expect(await repo().all()).toEqual(before.all);
  });

  maybe('concurrent loads each replace the other whole', async () => {
    // PostgreSQL: two connections. SQLite: the one connection takes them in turn (two processes wait on
    // busy_timeout; two connections in one process would block its event loop on each other's lock).
    const other = suite.engine.name === 'postgres' ? createStore(await openStore(suite.target)) : undefined;
    try {
      const a = Array.from({ length: 1_200 }, (_, i) => doc(`A${i}`));
      const b = [...a.slice(0, 600), ...Array.from({ length: 300 }, (_, i) => doc(`B${i}`))];
      const start = await repo().version();
      const loads = await Promise.all([repo().replaceAll(a, 5_000), (other ?? suite.store).trustedDocuments.replaceAll(b, 5_001)]);
      expect(loads.map((l) => l.version).sort()).toEqual([start + 1, start + 2]);
      expect(loads.map((l) => l.count)).toEqual([1_200, 900]);
      const last = loads[0]!.version > loads[1]!.version ? a : b;
      expect((await repo().all()).map((d) => d.id)).toEqual(last.map((d) => d.id).sort());
      expect(await repo().version()).toBe(start + 2);
    } finally {
      await other?.connection.close();
    }
  });
});
