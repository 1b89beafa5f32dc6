/**
 * Batched deltas (usage records, the Redis day quotas) are written in parts with the event loop
 * free between them, and a part that fails (throws without writing) is put back with the parts
 * after it: every count is written once, the ones counted during a write with the next.
 */
import { createBatchedDeltas } from '../../../src/cluster/batched-deltas.js';

interface Count {
  id: string;
  n: number;
}

function counter(write: (batch: Count[]) => Promise<void>) {
  const failures: number[] = [];
  const deltas = createBatchedDeltas<Count>({
    write,
    merge: (into, from) => {
      into.n += from.n;
    },
    intervalMs: 3_600_000, // flushed by the tests
    partSize: 500,
    onWriteFailed: (_error, pending) => failures.push(pending),
  });
  /** A delta per id, in one group; `group:id` names one in another group. */
  const count = (name: string, n = 1) => {
    const [group, id] = name.includes(':') ? (name.split(':') as [string, string]) : ['g', name];
    deltas.entry(group, id, () => ({ id: name, n: 0 })).n += n;
  };
  return { deltas, count, failures };
}

describe('batched deltas', () => {
  it('writes parts of at most partSize deltas, each delta once', async () => {
    const parts: Count[][] = [];
    const { deltas, count } = counter(async (batch) => void parts.push(batch.map((d) => ({ ...d }))));
    for (let i = 0; i < 1_200; i++) count(`k${i}`, i + 1);
    await deltas.flush();
    expect(parts.map((p) => p.length)).toEqual([500, 500, 200]);
    const written = parts.flat();
    expect(new Set(written.map((d) => d.id)).size).toBe(1_200);
    expect(written.reduce((sum, d) => sum + d.n, 0)).toBe((1_200 * 1_201) / 2);
    await deltas.stop();
  });

  it('answers what arrived meanwhile between two parts', async () => {
    const order: string[] = [];
    const { deltas, count } = counter(async (batch) => {
      order.push(`part of ${batch.length}`);
      // A request that arrives while the first part is written: its callback runs on the next turn.
      if (order.length === 1) setImmediate(() => order.push('request'));
    });
    for (let i = 0; i < 700; i++) count(`k${i}`);
    await deltas.flush();
    expect(order).toEqual(['part of 500', 'request', 'part of 200']);
    await deltas.stop();
  });

  it('keeps what is counted between two parts, and a flush or stop asked meanwhile waits for the write', async () => {
    const stored = new Map<string, number>();
    let counting: (() => void) | undefined;
    const { deltas, count } = counter(async (batch) => {
      for (const d of batch) stored.set(d.id, (stored.get(d.id) ?? 0) + d.n);
      counting?.();
      counting = undefined;
    });
    for (let i = 0; i < 1_000; i++) count(`k${i}`);
    let flushedAgain: Promise<void> | undefined;
    // During the first part: a request counts on a key of the second part and on a new one, then another flush is asked.
    counting = () => {
      count('k900', 5);
      count('new', 1);
      flushedAgain = deltas.flush();
    };
    const first = deltas.flush();
    await first;
    expect(stored.get('k900')).toBe(1); // the second part held the count taken, not the one added meanwhile
    expect(stored.has('new')).toBe(false);
    await flushedAgain;
    expect(stored.get('k900')).toBe(6);
    expect(stored.get('new')).toBe(1);
    count('late', 2);
    const stopping = deltas.stop();
    await stopping;
    expect(stored.get('late')).toBe(2);
    expect([...stored.values()].reduce((a, b) => a + b, 0)).toBe(1_000 + 5 + 1 + 2);
  });

  it('puts back the failed part and the ones after it, merged with what was counted since, and writes them next time', async () => {
    const stored = new Map<string, number>();
    let calls = 0;
    const { deltas, count, failures } = counter(async (batch) => {
      calls++;
      if (calls === 2) throw new Error('store down');
      for (const d of batch) stored.set(d.id, (stored.get(d.id) ?? 0) + d.n);
    });
    for (let i = 0; i < 1_200; i++) count(`k${i}`);
    await deltas.flush();
    expect(failures).toEqual([700]); // the second and third parts wait
    expect([...stored.values()].reduce((a, b) => a + b, 0)).toBe(500);

    // Counted after the failure, on a key that waits and on one that was written.
    count('k999', 2);
    count('k0', 3);
    count('other:k999', 7); // the same id in another group: a delta of its own
    await deltas.flush();
    expect(stored.size).toBe(1_201);
    expect(stored.get('k999')).toBe(3);
    expect(stored.get('k0')).toBe(4);
    expect(stored.get('other:k999')).toBe(7);
    expect([...stored.values()].reduce((a, b) => a + b, 0)).toBe(1_200 + 5 + 7);
    await deltas.stop();
  });
});
