/**
 * 401s that say which case it is (missing, malformed, unknown, revoked, expired, a disabled
 * account) with RFC 6750's `WWW-Authenticate: Bearer` challenge, on both REST facades (the
 * envelope and `type` of D5 unchanged) and over GraphQL (the same messages, `UNAUTHENTICATED`);
 * a 403 for the plan that says how to get it (PORTAL_UPGRADE_URL).
 */
import { displayPrefix, generateApiKey, hashApiKey } from '../../src/auth/api-key.js';
import { expectErrorEnvelope } from '../support/envelopes.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

const UPGRADE_URL = 'https://billing.example.com/upgrade';
let t: TestService;
beforeAll(async () => {
  t = await startTestService({ env: { PORTAL_UPGRADE_URL: UPGRADE_URL } });
});
afterAll(() => t?.close());

/**
 * RFC 6750, section 3: `Bearer` then auth-params (RFC 9110's `token "=" quoted-string`), split by
 * commas; error_description's characters are %x20-21 / %x23-5B / %x5D-7E (no quote, no backslash).
 */
const CHALLENGE = /^Bearer(?: ([a-z_]+="[\x20\x21\x23-\x5B\x5D-\x7E]*")((?:, [a-z_]+="[\x20\x21\x23-\x5B\x5D-\x7E]*")*))?$/;

function challengeOf(header: string | undefined): Record<string, string> {
  expect(header).toMatch(CHALLENGE);
  return Object.fromEntries([...header!.matchAll(/([a-z_]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

/** A key that worked, then was revoked; one that expired; one whose account is disabled. */
async function refusedKeys() {
  const revoked = await t.createKey('pro', 'pro');
  await t.service.store.accounts.revokeKey(revoked.keyId, t.clock.now());
  const owner = await t.createKey('pro', 'pro');
  const expiring = generateApiKey();
  const expiresAt = t.clock.now() + 60_000;
  await t.service.store.accounts.addKeyWithin({
    accountId: owner.accountId,
    name: 'soon',
    keyHash: hashApiKey(expiring),
    displayPrefix: displayPrefix(expiring),
    now: t.clock.now(),
    expiresAt,
    maxLive: 20,
  });
  const disabled = await t.createKey('pro', 'pro');
  await t.service.store.accounts.setDisabled(disabled.accountId, true, t.clock.now());
  return { revoked: revoked.key, expiring, expiresAt, disabled: disabled.key };
}

const CASES = [
  [
    'malformed: another scheme',
    { Authorization: 'Basic abc' },
    /^malformed API key: a key is "mgw_" and 32 or more letters and digits, sent as "Authorization: Bearer <key>"$/,
    'malformed',
  ],
  ['malformed: a truncated key', bearer('mgw_abc123'), /^malformed API key/, 'malformed'],
  [
    'unknown',
    bearer(`mgw_${'x'.repeat(40)}`),
    /^unknown API key: check that it was copied whole, or create one in the account dashboard \(\/account\)$/,
    'unknown',
  ],
] as const;

describe.each([
  ['A', () => t.a, '/api/v1/markets', false],
  ['B', () => t.b, '/api/v1/markets', true],
] as const)('REST on variant %s', (variant, agent, path, isB) => {
  it('a missing key: the challenge without an error, and how to send a key', async () => {
    const res = await agent().get(path);
    expect(res.status).toBe(401);
    expectErrorEnvelope(res.body, 401, 'unauthorized', variant);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="market-gateway"');
    expect(challengeOf(res.headers['www-authenticate'])).toEqual({ realm: 'market-gateway' });
    expect(res.body.error.message).toBe(
      `an API key is required: send it as "Authorization: Bearer <key>"${isB ? ' or ?apikey=<key>' : ''}; create one in the account dashboard (/account)`,
    );
  });

  it('a key sent as X-API-Key is named as not read', async () => {
    const res = await agent()
      .get(path)
      .set('X-API-Key', `mgw_${'x'.repeat(40)}`);
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/\(the X-API-Key header is not read\)/);
    expect(res.body.error.message).not.toContain('x'.repeat(40));
  });

  it.each(CASES)('%s: which case it is, and error="invalid_token"', async (_name, headers, message, refused) => {
    const res = await agent().get(path).set(headers);
    expect(res.status).toBe(401);
    expect(res.body.error.type).toBe('unauthorized');
    expect(res.body.error.message).toMatch(message);
    expect(challengeOf(res.headers['www-authenticate'])).toEqual({
      realm: 'market-gateway',
      error: 'invalid_token',
      error_description: `${refused} API key`,
    });
  });

  it('revoked, expired, a disabled account: each says so, never echoing the key', async () => {
    const keys = await refusedKeys();
    t.clock.advance(60_000);
    try {
      const answers = {
        revoked: await agent().get(path).set(bearer(keys.revoked)),
        expired: await agent().get(path).set(bearer(keys.expiring)),
        disabled: await agent().get(path).set(bearer(keys.disabled)),
      };
      expect(answers.revoked.body.error.message).toBe(
        'this API key was revoked: use another key of the account, or create one in the account dashboard (/account)',
      );
      expect(answers.expired.body.error.message).toBe(
        `this API key expired at ${new Date(keys.expiresAt).toISOString()}: create or rotate a key in the account dashboard (/account)`,
      );
      expect(answers.disabled.body.error.message).toBe("this API key's account is disabled: ask the operator of this gateway to enable it");
      for (const [refused, res] of Object.entries(answers)) {
        expect(res.status).toBe(401);
        expect(res.body.error.type).toBe('unauthorized');
        expect(challengeOf(res.headers['www-authenticate'])).toMatchObject({ error: 'invalid_token', error_description: `${refused} API key` });
        expect(JSON.stringify(res.body)).not.toContain(keys.revoked.slice(4));
      }
    } finally {
      t.clock.advance(-60_000);
    }
  });
});

it('variant A names ?apikey= as read on the prediction-markets listener only', async () => {
  const { key } = await t.createKey('pro');
  const res = await t.a.get(`/api/v1/markets?apikey=${key}`);
  expect(res.status).toBe(401);
  expect(res.body.error.message).toMatch(/\(\?apikey= is read on the prediction-markets listener only\)/);
  expect(res.body.error.message).not.toContain(key);
});

describe('over GraphQL: the same messages in errors[].message, UNAUTHENTICATED, and the header', () => {
  const gql = (headers: Record<string, string>) =>
    t.a.post('/graphql').set('Content-Type', 'application/json').set(headers).send({ query: '{ assetMarkets { total } }' });

  it('missing', async () => {
    const res = await gql({});
    expect(res.status).toBe(401);
    expect(res.body.errors[0]).toMatchObject({
      message: 'an API key is required: send it as "Authorization: Bearer <key>"; create one in the account dashboard (/account)',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    expect(res.headers['www-authenticate']).toBe('Bearer realm="market-gateway"');
  });

  it.each(CASES)('%s', async (_name, headers, message, refused) => {
    const res = await gql(headers);
    expect(res.status).toBe(401);
    expect(res.body.errors[0].message).toMatch(message);
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(challengeOf(res.headers['www-authenticate'])).toMatchObject({ error: 'invalid_token', error_description: `${refused} API key` });
  });

  it('revoked', async () => {
    const { revoked } = await refusedKeys();
    const res = await gql(bearer(revoked));
    expect(res.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^this API key was revoked/), extensions: { code: 'UNAUTHENTICATED' } });
  });
});

describe('403 for the plan says how to get it', () => {
  it('REST: the upgrade URL', async () => {
    const { key } = await t.createKey('free');
    const res = await t.a.get('/api/v1/brief?symbols=BTC/USD').set(bearer(key));
    expect(res.status).toBe(403);
    expectErrorEnvelope(res.body, 403, 'forbidden');
    expect(res.body.error.message).toBe(
      `GET /api/v1/brief needs the pro market-data plan or higher; this key's market-data plan is free: get it at ${UPGRADE_URL}`,
    );
    const b = await t.b.get('/api/v1/markets').set(bearer(key));
    expect(b.status).toBe(403);
    expect(b.body.error.message).toMatch(new RegExp(`prediction plan is none: get it at ${UPGRADE_URL}$`));
  });

  it('GraphQL: the same, FORBIDDEN', async () => {
    const { key } = await t.createKey('pro');
    const res = await t.a
      .post('/graphql')
      .set('Content-Type', 'application/json')
      .set(bearer(key))
      .send({ query: '{ predictionMarkets { items { question } } }' });
    expect(res.body.errors[0]).toMatchObject({
      message: `this operation needs the pro prediction plan or higher; this key's prediction plan is none: get it at ${UPGRADE_URL}`,
      extensions: { code: 'FORBIDDEN' },
    });
  });
});
