/** One store suite per engine: a fresh store before the suite's tests, closed and torn down after. */
import { createStore, openStore, type Store } from '../../src/store/index.js';
import { availableEngines, ENGINES, type EngineSetup, type EngineTarget } from './engines.js';

export interface StoreSuite {
  readonly engine: EngineTarget;
  /** False where the engine is unreachable outside CI: the suite's tests are skipped. */
  readonly enabled: boolean;
  /** `it`, or `it.skip` where the engine is not available. */
  readonly maybe: jest.It;
  /** Valid inside hooks and tests. */
  readonly store: Store;
  readonly target: EngineSetup;
}

const engines = await availableEngines();

export function describeOnEachEngine(title: string, body: (suite: StoreSuite) => void): void {
  describe.each(ENGINES.map((e) => [e.name, e] as const))(`${title} on %s`, (_name, engine) => {
    const enabled = engines.includes(engine);
    let store: Store | undefined;
    let target: EngineSetup | undefined;
    beforeAll(async () => {
      if (!enabled) return;
      target = await engine.setup();
      // The repositories' SQL is under test here, not a request's bound (statement-deadline.test.ts
      // has that): a suite seeding thousands of rows on a busy machine ran past the 800 ms of requests.
      store = createStore(await openStore({ ...target, queryTimeoutMs: 10_000 }));
    });
    afterAll(async () => {
      await store?.connection.close();
      await target?.teardown();
    });
    body({
      engine,
      enabled,
      maybe: enabled ? it : it.skip,
      get store() {
        if (!store) throw new Error(`${engine.name} store used outside a hook or test`);
        return store;
      },
      get target() {
        if (!target) throw new Error(`${engine.name} target used outside a hook or test`);
        return target;
      },
    });
  });
}
