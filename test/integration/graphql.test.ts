/** /graphql: the same keys, plans and quotas as REST (D12), and the same data for the same question. */
import { bearer, startTestService, type TestService } from '../support/service.js';
import { graphqlPost } from '../support/graphql-call.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.close());

const gql = (key: string | null, query: string, variables: Record<string, unknown> = {}) => graphqlPost(t.a, key, query, variables);

describe('REST and GraphQL give the same data', () => {
  it('markets', async () => {
    const { key } = await t.createKey('enterprise');
    const rest = await t.a.get('/api/v1/markets?type=crypto&limit=7&offset=2').set(bearer(key));
    const res = await gql(key, '{ assetMarkets(filter: {type: CRYPTO}, limit: 7, offset: 2) { total items { symbol name status type price change24h } } }');
    expect(res.status).toBe(200);
    const page = res.body.data.assetMarkets;
    expect(page.total).toBe(rest.body.total);
    expect(
      page.items.map((m: Record<string, unknown>) => ({
        symbol: m.symbol,
        name: m.name,
        status: String(m.status).toLowerCase(),
        type: String(m.type).toLowerCase(),
        price: m.price,
        change_24h: m.change24h,
      })),
    ).toEqual(rest.body.data);
    // REST runs the same operation: both are also held to the read model itself (order, names, prices).
    const expected = t.service.markets.list({ type: 'crypto' }, t.clock.now()).slice(2, 9);
    expect(expected).toHaveLength(7);
    expect(rest.body.data.map((m: { symbol: string; name: string }) => [m.symbol, m.name])).toEqual(expected.map((m) => [m.meta.symbol, m.meta.name]));
    for (const m of rest.body.data as { symbol: string; price: number }[]) {
      const price = t.service.markets.quote(m.symbol)!.price;
      expect(Math.abs(m.price - price)).toBeLessThanOrEqual(Math.abs(price) * 1e-3);
    }
  });

  it('brief', async () => {
    const { key } = await t.createKey('pro');
    const rest = await t.a.get('/api/v1/brief?symbols=BTC/USD,EUR/USD&interval=4h').set(bearer(key));
    const res = await gql(
      key,
      '{ assetBrief(symbols: ["btc/usd", "EUR/USD"], interval: H4) { interval markets { symbol trend confidence price change volume signals indicators { rsi14 sma50 macdHistogram } } } }',
    );
    const brief = res.body.data.assetBrief;
    expect(brief.interval).toBe('H4');
    expect(
      brief.markets.map(
        (m: {
          symbol: string;
          trend: string;
          confidence: number;
          price: number;
          signals: string[];
          indicators: { rsi14: number; sma50: number; macdHistogram: number };
        }) => [m.symbol, m.trend.toLowerCase(), m.confidence, m.price, m.signals, m.indicators.rsi14, m.indicators.sma50, m.indicators.macdHistogram],
      ),
    ).toEqual(
      rest.body.data.markets.map(
        (m: { symbol: string; trend: string; confidence: number; price: number; signals: string[]; indicators: Record<string, number> }) => [
          m.symbol,
          m.trend,
          m.confidence,
          m.price,
          m.signals,
          m.indicators.rsi_14,
          m.indicators.sma_50,
          m.indicators.macd_histogram,
        ],
      ),
    );
  });

  it("alerts, created through the mutation on the caller's own account", async () => {
    const { key } = await t.createKey('pro');
    const created = await gql(key, 'mutation($in: CreatePriceAlertInput!) { createPriceAlert(input: $in) { id status kind symbol threshold createdAt } }', {
      in: { symbol: 'btc/usd', kind: 'PRICE_ABOVE', threshold: 1e9 },
    });
    expect(created.body.errors).toBeUndefined();
    const alert = created.body.data.createPriceAlert;
    expect(alert).toMatchObject({ status: 'ACTIVE', kind: 'PRICE_ABOVE', symbol: 'BTC/USD', threshold: 1e9 });
    const rest = await t.a.get('/api/v1/alerts').set(bearer(key));
    expect(rest.body.data).toEqual([
      expect.objectContaining({ id: alert.id, status: 'active', kind: 'price_above', symbol: 'BTC/USD', created_at: alert.createdAt }),
    ]);
    const listed = await gql(key, '{ priceAlerts { total items { id market { symbol status } } } }');
    expect(listed.body.data.priceAlerts).toEqual({ total: 1, items: [{ id: alert.id, market: { symbol: 'BTC/USD', status: 'ACTIVE' } }] });
  });

  it("an alert is read and cancelled by id on the caller's own account only, and a cancelled alert never fires", async () => {
    const [owner, stranger, free] = await Promise.all([t.createKey('pro'), t.createKey('enterprise'), t.createKey('free')]);
    const price = t.service.markets.quote('BTC/USD')!.price;
    // Meets its condition on the next quote: only cancelling keeps it from firing.
    const created = await gql(owner.key, 'mutation($in: CreatePriceAlertInput!) { createPriceAlert(input: $in) { id } }', {
      in: { symbol: 'BTC/USD', kind: 'PRICE_ABOVE', threshold: price / 2 },
    });
    const { id } = created.body.data.createPriceAlert;
    const read = (key: string) => gql(key, 'query($id: ID!) { priceAlert(id: $id) { id status symbol } }', { id });
    const cancel = (key: string) => gql(key, 'mutation($id: ID!) { cancelPriceAlert(id: $id) { id status threshold } }', { id });

    expect((await read(owner.key)).body.data.priceAlert).toEqual({ id, status: 'ACTIVE', symbol: 'BTC/USD' });
    // Another account sees nothing and cancels nothing; a free key is refused by plan.
    expect((await read(stranger.key)).body.data.priceAlert).toBeNull();
    expect((await cancel(stranger.key)).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await cancel(free.key)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await read(free.key)).body.errors[0].extensions.code).toBe('FORBIDDEN');

    const cancelled = await cancel(owner.key);
    expect(cancelled.body).toEqual({ data: { cancelPriceAlert: { id, status: 'ACTIVE', threshold: price / 2 } } });
    expect((await read(owner.key)).body.data.priceAlert).toBeNull();
    expect((await cancel(owner.key)).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await t.a.get('/api/v1/alerts').set(bearer(owner.key))).body).toEqual({ success: true, data: [], total: 0 });

    const quote = { ...t.service.markets.quote('BTC/USD')!, observedAt: t.clock.now() + 1 };
    expect(await t.service.alerts.evaluate([quote], t.clock.now() + 1)).toBe(0);
  });

  it('the mutation refuses bad input with BAD_USER_INPUT and unknown symbols with NOT_FOUND', async () => {
    const { key } = await t.createKey('pro');
    const m = 'mutation($in: CreatePriceAlertInput!) { createPriceAlert(input: $in) { id } }';
    const noThreshold = await gql(key, m, { in: { symbol: 'BTC/USD', kind: 'PRICE_BELOW' } });
    expect(noThreshold.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const badSignal = await gql(key, m, { in: { symbol: 'BTC/USD', kind: 'SIGNAL', signal: 'moon' } });
    expect(badSignal.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const unknown = await gql(key, m, { in: { symbol: 'NOPE/USD', kind: 'PRICE_ABOVE', threshold: 1 } });
    expect(unknown.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('edge on /graphql (D12)', () => {
  it('401 UNAUTHENTICATED for data without a key or with a bad one', async () => {
    for (const key of [null, `mgw_${'z'.repeat(40)}`]) {
      const res = await gql(key, '{ assetMarkets { total } }');
      expect(res.status).toBe(401);
      expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect(res.body.data).toBeUndefined();
    }
  });

  it('introspection needs no key (Sandbox loads the schema) outside production', async () => {
    const res = await gql(null, '{ __schema { queryType { name } } }');
    expect(res.status).toBe(200);
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });

  it('403 FORBIDDEN when a field needs a higher plan, before any resolver, consuming nothing', async () => {
    const { key } = await t.createKey('free');
    const res = await gql(key, '{ assetMarkets { total } assetBrief(symbols: ["BTC/USD"]) { interval } }');
    expect(res.status).toBe(403);
    expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(res.body.data).toBeUndefined();
    const ok = await gql(key, '{ assetMarkets { total } }');
    expect(ok.headers['x-ratelimit-remaining']).toBe('9');
  });

  it('prediction fields need the prediction pro plan', async () => {
    const { key } = await t.createKey('enterprise', 'none');
    const res = await gql(key, '{ predictionMarkets { count } }');
    expect(res.status).toBe(403);
    expect(res.body.errors[0].message).toMatch(/prediction/);
  });

  it('GraphQL and REST share one quota: 10 for free, then RATE_LIMITED 429', async () => {
    const { key } = await t.createKey('free');
    for (let i = 0; i < 5; i++) expect((await t.a.get('/api/v1/markets').set(bearer(key))).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await gql(key, '{ assetMarkets(limit: 1) { total } }')).status).toBe(200);
    const refused = await gql(key, '{ assetMarkets(limit: 1) { total } }');
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await t.a.get('/api/v1/markets').set(bearer(key))).status).toBe(429);
  });

  it('bad arguments are BAD_USER_INPUT with the REST message', async () => {
    const { key } = await t.createKey('enterprise');
    const res = await gql(key, '{ assetMarkets(limit: 501) { total } }');
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(res.body.errors[0].message).toBe('limit must be an integer from 1 to 500');
  });

  it('GET /graphql from a browser serves Apollo Sandbox', async () => {
    const res = await t.a.get('/graphql').set('Accept', 'text/html');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/sandbox/i);
  });
});

describe('keys', () => {
  it('a revoked key is refused within 2 s, on REST and GraphQL', async () => {
    const { key, keyId } = await t.createKey('pro');
    expect((await t.a.get('/api/v1/markets').set(bearer(key))).status).toBe(200); // now cached
    await t.service.store.accounts.revokeKey(keyId, Date.now());
    const revokedAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 2_000) {
      status = (await t.a.get('/api/v1/markets').set(bearer(key))).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(2_000);
    expect((await gql(key, '{ viewer { accountId } }')).status).toBe(401);
  });
});

describe('price alerts move exactly once (D11)', () => {
  it('triggers on a new quote meeting the condition, expires when expires_at passes, then never changes', async () => {
    const owner = await t.createKey('pro');
    const account = (await t.service.store.accounts.findKeyById(owner.keyId))!.account;
    const price = t.service.markets.quote('BTC/USD')!.price;
    const create = (kind: 'price_above' | 'price_below', threshold: number, expiresAt: number | null) =>
      t.service.store.priceAlerts.create({ accountId: account.id, symbol: 'BTC/USD', kind, threshold, signal: null, expiresAt, now: t.clock.now() });
    const willTrigger = await create('price_above', price / 2, null);
    const willExpire = await create('price_below', price / 100, t.clock.now() + 30_000);
    const stays = await create('price_below', price / 100, null);

    t.clock.advance(5_000);
    const batch = [{ ...t.service.markets.quote('BTC/USD')!, observedAt: t.clock.now() }];
    expect(await t.service.alerts.evaluate(batch, t.clock.now())).toBe(1);
    t.clock.advance(60_000);
    expect(await t.service.alerts.evaluate([{ ...batch[0]!, observedAt: t.clock.now() }], t.clock.now())).toBe(1);
    expect(await t.service.alerts.evaluate([{ ...batch[0]!, observedAt: t.clock.now() }], t.clock.now())).toBe(0);

    const res = await t.a.get('/api/v1/alerts').set(bearer(owner.key));
    const byId = Object.fromEntries(res.body.data.map((a: { id: string }) => [a.id, a]));
    expect(byId[willTrigger.id]).toMatchObject({ status: 'triggered', triggered_at: new Date(t.clock.now() - 60_000).toISOString() });
    expect(byId[willExpire.id]).toMatchObject({ status: 'expired', triggered_at: null });
    expect(byId[stays.id]).toMatchObject({ status: 'active' });
  });
});

describe('error codes (D12)', () => {
  it.each([
    ['a query that does not parse', '{ assetMarkets('],
    ['a field that does not exist', '{ markets { total } }'],
  ])('%s is BAD_USER_INPUT, one of the documented codes', async (_name, query) => {
    const { key } = await t.createKey('pro');
    const res = await gql(key, query);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(res.body)).not.toMatch(/stacktrace|\/work\/|node_modules/);
  });
});
