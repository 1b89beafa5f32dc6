/**
 * Parameter decisions (api-decisions.md): REST keeps the contract's lower-case values and says so
 * when given GraphQL's spelling; unknown parameters stay ignored (D6) and the answer names them;
 * an unknown symbol is a 404 that says which known one was likely meant, on REST and GraphQL alike.
 */
import { expectErrorEnvelope } from '../support/envelopes.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { graphqlPost } from '../support/graphql-call.js';

let t: TestService;
let key: string;
beforeAll(async () => {
  t = await startTestService();
  ({ key } = await t.createKey('enterprise', 'pro'));
});
afterAll(() => t?.close());

const gql = (query: string) => graphqlPost(t.a, key, query);

describe("GraphQL's spelling on REST", () => {
  it('type=CRYPTO is a 400 that names the REST spelling; status=Active the same', async () => {
    const res = await t.a.get('/api/v1/markets?type=CRYPTO').set(bearer(key));
    expect(res.status).toBe(400);
    expectErrorEnvelope(res.body, 400, 'bad_request');
    expect(res.body.error.message).toBe('type must be one of crypto, forex, stocks, in lower case: crypto, not CRYPTO (the GraphQL spelling)');
    const status = await t.a.get('/api/v1/markets?status=Active').set(bearer(key));
    expect(status.body.error.message).toBe('status must be one of active, inactive, in lower case: active, not Active');
    const other = await t.a.get('/api/v1/markets?type=bonds').set(bearer(key));
    expect(other.body.error.message).toBe('type must be one of crypto, forex, stocks');
  });

  it("GraphQL refuses REST's spelling the same way, naming its own", async () => {
    const res = await gql('{ assetMarkets(filter: {type: crypto}) { total } }');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(res.body.errors[0].message).toMatch(/Did you mean the enum value "CRYPTO"\?/);
  });
});

describe('unknown parameters: ignored (D6), and named in X-Ignored-Parameters', () => {
  it('lmit=5 answers the default page and names lmit', async () => {
    const res = await t.a.get('/api/v1/markets?lmit=5&type=crypto').set(bearer(key));
    expect(res.status).toBe(200);
    expect(res.headers['x-ignored-parameters']).toBe('lmit');
    const plain = await t.a.get('/api/v1/markets?type=crypto').set(bearer(key));
    expect(res.body.data).toEqual(plain.body.data);
    expect(plain.headers['x-ignored-parameters']).toBeUndefined();
  });

  it("B's apikey is read, not ignored; odd names are percent-encoded", async () => {
    const res = await t.b.get(`/api/v1/alerts?apikey=${key}&limt=3&x%0Ay=1`);
    expect(res.status).toBe(200);
    expect(res.headers['x-ignored-parameters']).toBe('limt, x%0Ay');
  });
});

describe('an unknown symbol: 404 with what was likely meant', () => {
  it.each([
    ['BTC', 'unknown symbol: BTC (did you mean BTC/USD?)'],
    ['btcusd', 'unknown symbol: BTCUSD (did you mean BTC/USD?)'],
    ['BTC-USD', 'unknown symbol: BTC-USD (did you mean BTC/USD?)'],
    ['NOPE/USD', 'unknown symbol: NOPE/USD'],
  ])('REST symbols=%s', async (symbol, message) => {
    const res = await t.a.get(`/api/v1/brief?symbols=${encodeURIComponent(symbol)}`).set(bearer(key));
    expect(res.status).toBe(404);
    expectErrorEnvelope(res.body, 404, 'not_found');
    expect(res.body.error.message).toBe(message);
  });

  it('two unknown ones, and the same over GraphQL (NOT_FOUND)', async () => {
    const rest = await t.a.get('/api/v1/brief?symbols=BTC,ETH/USD,NOPE').set(bearer(key));
    expect(rest.body.error.message).toBe('unknown symbols: BTC (did you mean BTC/USD?), NOPE');
    const res = await gql('{ assetBrief(symbols: ["BTC", "ETH/USD", "NOPE"]) { interval } }');
    expect(res.body.errors[0]).toMatchObject({ message: 'unknown symbols: BTC (did you mean BTC/USD?), NOPE', extensions: { code: 'NOT_FOUND' } });
  });
});
