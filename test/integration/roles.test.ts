/**
 * Several instances on one PostgreSQL: HTTP-only instances and workers. Exactly one worker runs
 * the jobs and another takes over within seconds when it goes; HTTP instances learn of new data
 * through LISTEN/NOTIFY and of revoked keys within D2's 2 s.
 */
import { ENGINES, postgresAvailable } from '../support/engines.js';
import { startUpstreamServer, type UpstreamServer } from '../support/upstream-server.js';
import { within } from '../support/wait.js';
import { bearer, midMinute, startTestService, TestClock, type TestService } from '../support/service.js';

const maybe = (await postgresAvailable()) ? it : it.skip;
const postgres = ENGINES.find((e) => e.name === 'postgres')!;

const market = (id: string, question: string, prob: string) => ({ id, question, slug: id, outcomePrices: `["${prob}","0"]`, volume24hr: 1000 });

describe('workers and HTTP instances sharing one database', () => {
  let target: Awaited<ReturnType<typeof postgres.setup>>;
  let upstream: UpstreamServer;
  const started: TestService[] = [];
  const start = async (role: 'http' | 'worker' | 'all') => {
    const t = await startTestService({
      role,
      clock: new TestClock(midMinute()),
      env: { ...target.env, FEEDS: 'polymarket', POLYMARKET_BASE_URL: upstream.baseUrl, POLYMARKET_POLL_MS: '3600000', UPSTREAM_PAGE_GAP_MS: '0' },
    });
    started.push(t);
    return t;
  };

  beforeAll(async () => {
    if (!(await postgresAvailable())) return;
    target = await postgres.setup();
    upstream = await startUpstreamServer([{ path: '/markets', reply: { body: JSON.stringify([market('1', 'Will one worker run the jobs?', '0.4')]) } }]);
  });
  afterAll(async () => {
    if (!(await postgresAvailable())) return;
    for (const t of started) await t.close().catch(() => undefined);
    await upstream.close();
    await target.teardown();
  });

  maybe('one worker holds the jobs, the other takes over within seconds when it stops; HTTP instances see the data', async () => {
    const first = await start('worker');
    const second = await start('worker');
    const http = await start('http');
    expect([first.service.runsJobs(), second.service.runsJobs(), http.service.runsJobs()]).toEqual([true, false, false]);

    // The HTTP instance runs no job, yet serves what the worker ingested.
    const { key } = await http.createKey('free', 'pro');
    await first.service.liveFeeds.pollAll();
    const seenIn = await within(2_000, async () => (await http.b.get('/api/v1/markets').set(bearer(key))).body.count === 1);
    expect(seenIn).toBeLessThan(2_000);

    // A movement found by the worker reaches the HTTP instance's /alerts.
    upstream.setRoutes([{ path: '/markets', reply: { body: JSON.stringify([market('1', 'Will one worker run the jobs?', '0.55')]) } }]);
    first.clock.advance(60_000);
    await first.service.liveFeeds.pollAll();
    await within(2_000, async () => (await http.b.get('/api/v1/alerts').set(bearer(key))).body.count === 1);
    const [alert] = (await http.b.get('/api/v1/alerts').set(bearer(key))).body.alerts;
    expect(alert).toMatchObject({ old_pct: 40, new_pct: 55, delta_pts: 15 });

    // The leader goes away: the other worker takes the jobs over.
    await first.close();
    started.splice(started.indexOf(first), 1);
    const tookOver = await within(5_000, () => second.service.runsJobs());
    expect(tookOver).toBeLessThan(5_000);

    // Stored once, whoever ran the detector.
    second.clock.advance(120_000);
    await second.service.liveFeeds.pollAll();
    expect(await http.service.store.prediction.latestAlerts(100)).toHaveLength(1);
  });

  maybe('the first requests of the day on two instances at once give one brief, stored once', async () => {
    const one = await start('http');
    const two = await start('http');
    const { key } = await one.createKey('free', 'pro');
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? two.b : one.b).get('/api/v1/brief').set(bearer(key))));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const r of answers) expect(r.body).toEqual(answers[0]!.body);
    expect(answers[0]!.body.brief).toContain('Will one worker run the jobs?');
    const stored = await one.service.store.prediction.getBrief(answers[0]!.body.date);
    expect(stored?.generatedAt).toBe(Date.parse(answers[0]!.body.generated_at));
  });

  maybe('a key revoked through one instance is refused by another within 2 s', async () => {
    const one = await start('http');
    const two = await start('http');
    const { key, keyId } = await one.createKey('pro');
    expect((await two.a.get('/api/v1/markets').set(bearer(key))).status).toBe(200);
    await one.service.store.accounts.revokeKey(keyId, Date.now()); // as the CLI does: wall-clock time
    const refusedIn = await within(2_000, async () => (await two.a.get('/api/v1/markets').set(bearer(key))).status === 401);
    expect(refusedIn).toBeLessThan(2_000);
  });
});
