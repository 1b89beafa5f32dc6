/**
 * D4's day window on both engines: it binds when it has fewer units left than the minute, and
 * survives a restart. Also a smoke test of every variant A endpoint on the engine.
 */
import { bearer, startTestService, TestClock, type TestService } from '../support/service.js';
import { availableEngines, ENGINES } from '../support/engines.js';

const engines = await availableEngines();

describe.each(ENGINES.map((e) => [e.name, e] as const))('on %s', (_name, engine) => {
  const maybe = engines.includes(engine) ? it : it.skip;

  maybe('serves every variant A endpoint', async () => {
    const target = await engine.setup();
    const t = await startTestService({ dataDir: target.dataDir, env: target.env });
    try {
      const { key } = await t.createKey('pro');
      const markets = await t.a.get('/api/v1/markets').set(bearer(key));
      expect(markets.status).toBe(200);
      expect(markets.body.total).toBeGreaterThanOrEqual(30);
      const brief = await t.a.get('/api/v1/brief?symbols=BTC/USD&interval=1d').set(bearer(key));
      expect(brief.body.data.markets[0].indicators.sma_50).toEqual(expect.any(Number));
      const alerts = await t.a.get('/api/v1/alerts').set(bearer(key));
      expect(alerts.body).toEqual({ success: true, data: [], total: 0 });
    } finally {
      await t.close();
      await target.teardown();
    }
  });

  maybe(
    'free: 1 000 a day across minutes; the day binds at the end; a restart keeps the count',
    async () => {
      const target = await engine.setup();
      const env = target.env;
      // 00:30 UTC today: 100 minutes of traffic stay inside one UTC day.
      const clock = new TestClock(Math.floor(Date.now() / 86_400_000) * 86_400_000 + 30 * 60_000 + 5_000);
      let t: TestService = await startTestService({ dataDir: target.dataDir, clock, env });
      try {
        const { key } = await t.createKey('free');
        let fewest = Infinity;
        for (let minute = 0; minute < 100; minute++) {
          const batch = await Promise.all(Array.from({ length: 10 }, () => t.a.get('/api/v1/markets?limit=1').set(bearer(key))));
          expect(batch.map((r) => r.status)).toEqual(Array(10).fill(200));
          if (minute === 0) expect(batch.map((r) => r.headers['x-ratelimit-limit'])).toEqual(Array(10).fill('10'));
          if (minute === 99) fewest = Math.min(...batch.map((r) => Number(r.headers['x-ratelimit-remaining'])));
          clock.advance(60_000);
        }
        // The 1000th answer left 0 in the day (and in the minute).
        expect(fewest).toBe(0);

        const dayEnd = String((Math.floor(clock.now() / 86_400_000) + 1) * 86_400);
        const refused = await t.a.get('/api/v1/markets').set(bearer(key));
        expect(refused.status).toBe(429);
        expect(refused.headers['x-ratelimit-limit']).toBe('1000');
        expect(refused.headers['x-ratelimit-reset']).toBe(dayEnd);

        // Restart on the same store: the day's count is still there.
        await t.close({ keepData: true });
        t = await startTestService({ dataDir: target.dataDir, clock, env });
        const afterRestart = await t.a.get('/api/v1/markets').set(bearer(key));
        expect(afterRestart.status).toBe(429);
        expect(afterRestart.headers['x-ratelimit-limit']).toBe('1000');

        // Day-refused requests spent no minute unit: the next day starts with a full minute.
        clock.advance(86_400_000);
        const nextDay = await t.a.get('/api/v1/markets').set(bearer(key));
        expect(nextDay.status).toBe(200);
        expect(nextDay.headers['x-ratelimit-remaining']).toBe('9');
      } finally {
        await t.close({ keepData: true });
        await target.teardown();
      }
      // A thousand requests and a restart: about 10 s on a quiet machine, over 30 s beside two CPU burners.
    },
    120_000,
  );
});

describe('PLAN_LIMITS', () => {
  it('operators can tighten or lift a plan window, and the edge follows', async () => {
    const t = await startTestService({ env: { PLAN_LIMITS: '{"marketData": {"free": {"perMinute": 3}}, "prediction": {"pro": {"perMinute": null}}}' } });
    try {
      const { key } = await t.createKey('free', 'pro');
      const a: number[] = [];
      for (let i = 0; i < 4; i++) a.push((await t.a.get('/api/v1/markets?limit=1').set(bearer(key))).status);
      expect(a).toEqual([200, 200, 200, 429]);
      const b = await Promise.all(Array.from({ length: 70 }, () => t.b.get('/api/v1/alerts?limit=1').set(bearer(key))));
      expect(b.every((r) => r.status === 200)).toBe(true);
      expect(b[0]!.headers['x-ratelimit-limit']).toBeUndefined(); // unlimited: no rate-limit headers (D4)
    } finally {
      await t.close();
    }
  });
});
