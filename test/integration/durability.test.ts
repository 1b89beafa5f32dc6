/**
 * kill -9, on both engines, in the middle of writes: keys being created by the CLI, price alerts
 * being created through /graphql, ingest writing every 50 ms. After a restart every acknowledged
 * write is there (a key the CLI printed, an alert answered 200, a movement alert a client was
 * shown), and so is the day's quota count.
 */
import { hashApiKey } from '../../src/auth/api-key.js';
import { createStore, openStore } from '../../src/store/index.js';
import { CLI_MAIN, REPO_ROOT, runCli } from '../support/cli.js';
import { spawnService } from '../support/child-service.js';
import { launch } from '../support/launch.js';
import { postgresAvailable, PROCESS_ENGINES } from '../support/engines.js';
import { accountScope } from '../../src/domain/scope.js';

const pg = await postgresAvailable();
const DAY_LIMIT = 50;

/** Starts `keys create` processes and SIGKILLs the rest as soon as `killAfter` have printed their key. */
async function createKeysUntilKilled(env: Record<string, string>, count: number, killAfter: number): Promise<string[]> {
  const printed: string[] = [];
  const children = Array.from({ length: count }, () =>
    launch(process.execPath, [CLI_MAIN, 'keys', 'create', '--plan', 'pro', '--name', 'k9', '--json'], {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_OPTIONS: '', LOG_LEVEL: 'silent', ...env },
    }),
  );
  await Promise.all(
    children.map(async (child) => {
      await child.exited;
      try {
        printed.push((JSON.parse(child.stdout()) as { key: string }).key); // acknowledged: the whole answer was printed
        if (printed.length === killAfter) for (const c of children) void c.kill();
      } catch {
        /* killed before it answered */
      }
    }),
  );
  return printed;
}

const gql = (base: string, key: string, query: string, variables?: object) =>
  fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });

describe.each(PROCESS_ENGINES)('kill -9 on $name', (engine) => {
  const run = engine.name === 'PostgreSQL' && !pg ? it.skip : it;

  run(
    'every acknowledged write survives, and the day quota count too',
    async () => {
      const { env: base, drop } = await engine.env();
      // Ingest writes continuously; the free plan's day window is small and its minute lifted, so the
      // day's remaining count shows in the headers.
      const env: Record<string, string> = {
        ...base,
        DEMO_TICK_MS: '50',
        PLAN_LIMITS: JSON.stringify({ marketData: { free: { perMinute: null, perDay: DAY_LIMIT } } }),
      };
      /** Stopped whatever the outcome: a failure before the kill must not leave it running. */
      let service: Awaited<ReturnType<typeof spawnService>> | undefined;
      try {
        // Keys: CLI processes killed mid-write; every key one of them printed must work.
        const cliKeys = await createKeysUntilKilled(env, 8, 3);
        // The loops below check each printed key: with none printed they would check nothing.
        expect(cliKeys.length).toBeGreaterThanOrEqual(3);
        service = await spawnService(env);
        const { a, b } = service;
        const free = (JSON.parse((await runCli(['keys', 'create', '--plan', 'free', '--json'], env)).stdout) as { key: string }).key;
        const pro = JSON.parse((await runCli(['keys', 'create', '--plan', 'pro', '--prediction-plan', 'pro', '--json'], env)).stdout) as {
          key: string;
          account_id: string;
        };

        // The day quota: 7 admitted requests.
        for (let i = 0; i < 7; i++) expect((await fetch(`${a}/api/v1/markets?limit=1`, { headers: { authorization: `Bearer ${free}` } })).status).toBe(200);
        // Movement alerts a client was shown (ingest keeps writing meanwhile).
        const shownAnswer = (await (await gql(b, pro.key, '{ movementAlerts(limit: 100) { items { id } } }')).json()) as {
          data: { movementAlerts: { items: { id: string }[] } };
        };
        const shown = shownAnswer.data.movementAlerts.items.map((a) => a.id);
        expect(shown.length).toBeGreaterThan(0);

        // Alerts: a burst of creations, killed once 20 are acknowledged (the rest are in flight).
        const acknowledged: string[] = [];
        /** Each answer's status and first error, shown if too few were acknowledged for the kill. */
        const answers: Record<string, number> = {};
        let killed: Promise<number | null> | undefined;
        const creations = Array.from(
          { length: 300 },
          (_, i) =>
            gql(a, pro.key, 'mutation($in: CreatePriceAlertInput!) { createPriceAlert(input: $in) { id } }', {
              in: { symbol: 'BTC/USD', kind: 'PRICE_ABOVE', threshold: 1e9 + i },
            })
              .then(async (res) => {
                const body = (await res.json()) as { data?: { createPriceAlert?: { id: string } }; errors?: { message: string }[] };
                const answer = `${res.status} ${body.errors?.[0]?.message ?? ''}`.trim();
                answers[answer] = (answers[answer] ?? 0) + 1;
                if (res.status === 200 && body.data?.createPriceAlert) acknowledged.push(body.data.createPriceAlert.id);
                if (acknowledged.length === 20) killed ??= service!.stop('SIGKILL');
              })
              .catch(() => undefined), // the connection died with the process: not acknowledged
        );
        await Promise.all(creations);
        expect({ killed: await killed, answers }).toMatchObject({ killed: null }); // killed by the signal, not exited
        expect(acknowledged.length).toBeLessThan(300); // some were cut off mid-write

        // What the disk holds, read directly, then through the restarted service.
        const store = createStore(await openStore({ dataDir: env.DATA_DIR!, databaseUrl: env.DATABASE_URL }));
        try {
          for (const key of cliKeys) expect(await store.accounts.findKeyByHash(hashApiKey(key))).toBeDefined();
          const alertIds = new Set((await store.priceAlerts.list({ scope: accountScope(pro.account_id) })).map((a) => a.id));
          for (const id of acknowledged) expect(alertIds).toContain(id);
          const movementIds = new Set((await store.prediction.latestAlerts(100_000)).map((a) => a.id));
          for (const id of shown) expect(movementIds).toContain(id);
        } finally {
          await store.connection.close();
        }
        const again = await spawnService(env);
        try {
          const res = await fetch(`${again.a}/api/v1/markets?limit=1`, { headers: { authorization: `Bearer ${free}` } });
          expect(res.status).toBe(200);
          expect(res.headers.get('x-ratelimit-remaining')).toBe(String(DAY_LIMIT - 8));
          for (const key of cliKeys)
            expect((await fetch(`${again.a}/api/v1/markets?limit=1`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
        } finally {
          await again.stop('SIGTERM');
        }
        console.log(
          `${engine.name}: after kill -9, ${cliKeys.length} of 8 keys printed, ${acknowledged.length} of 300 acknowledged alerts and ${shown.length} shown movement alerts all present; day count 8 of ${DAY_LIMIT}`,
        );
      } finally {
        await service?.stop('SIGKILL'); // at once if the kill above was made
        await drop();
      }
    },
    90_000,
  );
});
