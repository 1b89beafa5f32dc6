/**
 * kill -9, on both engines, with the built bin in child processes: one scenario per engine, whose
 * promises each test below checks. In the middle of writes (keys being created by CLI processes,
 * price alerts being created through /graphql, ingest writing every 50 ms, usage counts written
 * every USAGE_FLUSH_MS, a webhook delivery held open by its receiver) the service is killed. After
 * a restart every acknowledged write is there (a key the CLI printed, an alert answered 200, a
 * movement alert a client was shown), and so is the day's quota count; the usage records lost at
 * most what was counted since the last write, and a SIGTERM then loses nothing; the delivery in
 * flight is sent again with the same webhook-id, one attempt recorded.
 *
 * One kill per engine serves all of it: each kill and restart of the service costs two start-ups,
 * which three files (this one, the usage records' and the webhooks' process suite) used to pay
 * each. The webhook's two-instance test stays in test/webhooks/processes.test.ts.
 */
import { Webhook } from 'standardwebhooks';
import { hashApiKey } from '../../src/auth/api-key.js';
import { accountScope } from '../../src/domain/scope.js';
import { createStore, openStore } from '../../src/store/index.js';
import { type ChildService, spawnService } from '../support/child-service.js';
import { CLI_MAIN, REPO_ROOT } from '../support/cli.js';
import { cliKey, runCliInProcess } from '../support/cli-in-process.js';
import { postgresAvailable, postgresSessions, PROCESS_ENGINES } from '../support/engines.js';
import { createPriceAlert, graphqlCall } from '../support/graphql-call.js';
import { launch } from '../support/launch.js';
import { within } from '../support/wait.js';
import { type ReceivedRequest, startWebhookReceiver } from '../support/webhook-receiver.js';

const pg = await postgresAvailable();
const DAY_LIMIT = 50;
const USAGE_FLUSH_MS = 250;

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

/** What one engine's scenario saw, for the tests to check. */
interface Outcome {
  /** Keys the killed CLI processes printed, and whether each is stored and admitted after the restart. */
  cliKeys: { printed: number; stored: number; admitted: number };
  /** Price alerts answered 200 before the kill (of 300 sent), and how many of them are stored. */
  alerts: { acknowledged: number; stored: number; killedBySignal: boolean; answers: Record<string, number> };
  /** Movement alerts a client was shown before the kill, and how many of them are stored. */
  movements: { shown: number; stored: number };
  /** The free key's day quota after the restart: status and remaining (8 spent, 7 before the kill). */
  dayQuota: { status: number; remaining: string | null };
  /** The usage key: 10 counted and written while running, 5 more right before the kill; 4 after the restart, then SIGTERM. */
  usage: { writtenWithinMs: number; afterKill: number; sigtermExit: number | null; afterSigterm: number };
  /** The delivery held open at the kill and the one sent after the restart, and the deliveries recorded. */
  webhook: { lost: ReceivedRequest; resent: ReceivedRequest; received: number; secret: string; deliveries: { id: string; status: string; attempts: number }[] };
}

async function killAndRestart(engine: (typeof PROCESS_ENGINES)[number]): Promise<Outcome> {
  const { env: base, drop } = await engine.env();
  // Ingest writes continuously; the free plan's day window is small and its minute lifted, so the
  // day's remaining count shows in the headers. Webhooks go to a loopback receiver, and an attempt
  // is not given up before the kill (WEBHOOK_TIMEOUT_MS at its most).
  const env: Record<string, string> = {
    ...base,
    DEMO_TICK_MS: '50',
    PLAN_LIMITS: JSON.stringify({ marketData: { free: { perMinute: null, perDay: DAY_LIMIT } } }),
    USAGE_FLUSH_MS: String(USAGE_FLUSH_MS),
    WEBHOOK_ALLOW_HTTP: '1',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
    WEBHOOK_POLL_MS: '100',
    WEBHOOK_TIMEOUT_MS: '60000',
  };
  // The test's own look at the store waits as an operator would: beside a service restarting on a
  // busy machine, a connection took over the service's one-second bound to open.
  const store = createStore(await openStore({ dataDir: env.DATA_DIR!, databaseUrl: env.DATABASE_URL, connectTimeoutMs: 10_000, queryTimeoutMs: 10_000 }));
  const receiver = await startWebhookReceiver(['hang']);
  /** Stopped whatever the outcome: a failure before the kill must not leave either running. */
  const services: ChildService[] = [];
  try {
    // Keys: CLI processes killed mid-write; every key one of them printed must work.
    const cliKeys = await createKeysUntilKilled(env, 8, 3);
    // The checks below look at each printed key: with none printed they would check nothing.
    if (cliKeys.length < 3) throw new Error(`only ${cliKeys.length} of 8 CLI processes printed a key before the kill`);
    const [free, pro, metered, enterprise] = [
      await cliKey(env, '--plan', 'free'),
      await cliKey(env, '--plan', 'pro', '--prediction-plan', 'pro'),
      await cliKey(env, '--plan', 'pro', '--name', 'metered'),
      await cliKey(env, '--plan', 'enterprise'),
    ];
    const created = await runCliInProcess(['webhooks', 'create', '--key-id', enterprise.id, '--url', receiver.url(), '--json'], env);
    if (created.code !== 0) throw new Error(`webhooks create failed: ${created.stderr}`);
    const endpoint = JSON.parse(created.stdout) as { id: string; secret: string };
    const recorded = async () => (await store.usage.report({ sinceDay: '2000-01-01', keyId: metered.id }, 'key')).reduce((sum, g) => sum + g.requests, 0);
    const markets = async (base: string, key: string, times = 1) => {
      const statuses: number[] = [];
      for (let i = 0; i < times; i++) statuses.push((await fetch(`${base}/api/v1/markets?limit=1`, { headers: { authorization: `Bearer ${key}` } })).status);
      return statuses;
    };

    const first = await spawnService(env);
    services.push(first);
    // The webhook: an alert the next tick triggers; its event goes out and the receiver holds the attempt open.
    expect((await createPriceAlert(first.a, enterprise.key, 0.01)).errors).toBeUndefined();
    // The day quota: 7 admitted requests.
    expect(await markets(first.a, free.key, 7)).toEqual(Array(7).fill(200));
    // Movement alerts a client was shown (ingest keeps writing meanwhile).
    const shownAnswer = await graphqlCall<{ movementAlerts: { items: { id: string }[] } }>(first.b, pro.key, '{ movementAlerts(limit: 100) { items { id } } }');
    const shown = shownAnswer.data!.movementAlerts.items.map((a) => a.id);
    // Usage: 10 requests, written by the interval while the process runs.
    expect(await markets(first.a, metered.key, 10)).toEqual(Array(10).fill(200));
    const writtenWithinMs = await within(10_000, async () => (await recorded()) === 10);
    await within(20_000, () => receiver.received.length === 1);

    // Five more counted, then alert creations 25 at a time (up to 300), killed once 20 are
    // acknowledged, the rest in flight. All 300 at once drew 503s on a busy machine (the pool and
    // its deadline shedding load, as they should), too few were acknowledged, and the kill never came.
    expect(await markets(first.a, metered.key, 5)).toEqual(Array(5).fill(200));
    const acknowledged: string[] = [];
    /** Each answer's status and first error, shown if too few were acknowledged for the kill. */
    const answers: Record<string, number> = {};
    let killed: Promise<number | null> | undefined;
    let next = 0;
    const sender = async () => {
      while (!killed && next < 300) {
        const answer = await createPriceAlert(first.a, pro.key, 1e9 + next++).catch(() => undefined); // died with the process
        if (!answer) return;
        const said = `${answer.status} ${answer.errors?.[0]?.message ?? ''}`.trim();
        answers[said] = (answers[said] ?? 0) + 1;
        if (answer.status === 200 && answer.data?.createPriceAlert) acknowledged.push(answer.data.createPriceAlert.id);
        if (acknowledged.length === 20) killed ??= first.stop('SIGKILL');
      }
    };
    await Promise.all(Array.from({ length: 25 }, sender));
    // Whatever was acknowledged, the process goes: the rest of the scenario is the restart.
    killed ??= first.stop('SIGKILL');
    const killedBySignal = (await killed) === null; // killed by the signal, not exited
    const afterKill = await recorded();

    // What the disk holds, read directly.
    const storedKeys = (await Promise.all(cliKeys.map((k) => store.accounts.findKeyByHash(hashApiKey(k))))).filter(Boolean).length;
    const alertIds = new Set((await store.priceAlerts.list({ scope: accountScope(pro.account_id) })).map((a) => a.id));
    const movementIds = new Set((await store.prediction.latestAlerts(100_000)).map((a) => a.id));

    // Then through the restarted service; the receiver answers from now on.
    receiver.answer([{ status: 204 }]);
    const again = await spawnService(env);
    services.push(again);
    const dayRes = await fetch(`${again.a}/api/v1/markets?limit=1`, { headers: { authorization: `Bearer ${free.key}` } });
    let admitted = 0;
    for (const key of cliKeys) if ((await markets(again.a, key))[0] === 200) admitted++;
    // On PostgreSQL the restarted instance first takes over the jobs lease the killed one held (5 s
    // stale, then its retry); under load that and the first poll have taken over 20 s.
    await within(45_000, () => receiver.received.length >= 2).catch(async (error: Error) => {
      const sessions = engine.name === 'PostgreSQL' ? `\nPostgreSQL's sessions:\n${await postgresSessions()}` : '';
      throw new Error(`${error.message}: the delivery was not sent again; the restarted service said:\n${again.output().slice(-3_000)}${sessions}`);
    });
    let deliveries: Outcome['webhook']['deliveries'] = [];
    await within(20_000, async () => {
      deliveries = JSON.parse((await runCliInProcess(['webhooks', 'deliveries', endpoint.id, '--json'], env)).stdout);
      return deliveries[0]?.status === 'delivered';
    });
    // A graceful stop writes everything it counted.
    expect(await markets(again.a, metered.key, 4)).toEqual(Array(4).fill(200));
    const sigtermExit = await again.stop('SIGTERM');
    const outcome: Outcome = {
      cliKeys: { printed: cliKeys.length, stored: storedKeys, admitted },
      alerts: { acknowledged: acknowledged.length, stored: acknowledged.filter((id) => alertIds.has(id)).length, killedBySignal, answers },
      movements: { shown: shown.length, stored: shown.filter((id) => movementIds.has(id)).length },
      dayQuota: { status: dayRes.status, remaining: dayRes.headers.get('x-ratelimit-remaining') },
      usage: { writtenWithinMs, afterKill, sigtermExit, afterSigterm: await recorded() },
      webhook: { lost: receiver.received[0]!, resent: receiver.received[1]!, received: receiver.received.length, secret: endpoint.secret, deliveries },
    };
    console.log(
      `${engine.name}: after kill -9, ${cliKeys.length} of 8 keys printed, ${acknowledged.length} of 300 acknowledged alerts and ${shown.length} shown movement alerts all checked; day count 8 of ${DAY_LIMIT}; usage written ${writtenWithinMs} ms after the 10th request (USAGE_FLUSH_MS ${USAGE_FLUSH_MS}), kill -9 right after 5 more kept ${afterKill} of 15`,
    );
    return outcome;
  } finally {
    await Promise.all(services.map((s) => s.kill())); // a no-op for one already gone
    await receiver.close();
    await store.connection.close();
    await drop();
  }
}

describe.each(PROCESS_ENGINES)('kill -9 on $name', (engine) => {
  const enabled = !(engine.name === 'PostgreSQL' && !pg);
  const run = enabled ? it : it.skip;
  let outcome: Outcome;
  beforeAll(async () => {
    if (enabled) outcome = await killAndRestart(engine);
  }, 240_000);

  run('every key a killed CLI process printed is stored and admitted after the restart', () => {
    expect(outcome.cliKeys.printed).toBeGreaterThanOrEqual(3);
    expect(outcome.cliKeys).toEqual({ printed: outcome.cliKeys.printed, stored: outcome.cliKeys.printed, admitted: outcome.cliKeys.printed });
  });

  run('every price alert answered 200 survives; some of the 300 were cut off mid-write', () => {
    const { alerts } = outcome;
    expect({ killedBySignal: alerts.killedBySignal, answers: alerts.answers }).toMatchObject({ killedBySignal: true });
    expect(alerts.acknowledged).toBeGreaterThanOrEqual(20);
    expect(alerts.acknowledged).toBeLessThan(300);
    expect(alerts.stored).toBe(alerts.acknowledged);
  });

  run('every movement alert a client was shown survives', () => {
    expect(outcome.movements.shown).toBeGreaterThan(0);
    expect(outcome.movements.stored).toBe(outcome.movements.shown);
  });

  run('the day quota count survives', () => {
    expect(outcome.dayQuota).toEqual({ status: 200, remaining: String(DAY_LIMIT - 8) });
  });

  run('usage records: written every interval while running; kill -9 loses at most what was counted since the last write', () => {
    expect(outcome.usage.writtenWithinMs).toBeLessThan(10_000);
    expect(outcome.usage.afterKill).toBeGreaterThanOrEqual(10);
    expect(outcome.usage.afterKill).toBeLessThanOrEqual(15);
  });

  run('usage records: a SIGTERM loses nothing', () => {
    expect(outcome.usage.sigtermExit).toBe(0);
    expect(outcome.usage.afterSigterm).toBe(outcome.usage.afterKill + 4);
  });

  run('a webhook delivery in flight at the kill is sent after the restart, with the same webhook-id, one attempt recorded', () => {
    const { lost, resent, received, secret, deliveries } = outcome.webhook;
    expect(resent.headers['webhook-id']).toBe(lost.headers['webhook-id']);
    expect(resent.body).toBe(lost.body);
    expect(new Webhook(secret).verify(resent.body, resent.headers)).toMatchObject({ type: 'price_alert.triggered' });
    // The killed attempt was never recorded: the one that counted is the restart's.
    expect(deliveries).toEqual([expect.objectContaining({ id: lost.headers['webhook-id'], status: 'delivered', attempts: 1 })]);
    // Nothing else came: the alert triggered once, its event was sent once more.
    expect(received).toBe(2);
  });
});
