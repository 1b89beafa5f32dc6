/**
 * A plaintext key is never kept, logged or echoed: after a session of requests that carry keys
 * every way a client can send them (and get every kind of refusal), the database file, every log
 * line at trace level and every response body are searched for each key, and none is found.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Response } from 'supertest';
import { generateApiKey } from '../../src/auth/api-key.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { graphqlPost } from '../support/graphql-call.js';

let t: TestService;
const logLines: string[] = [];
beforeAll(async () => {
  t = await startTestService({ env: { LOG_LEVEL: 'trace' }, logSink: { write: (line) => void logLines.push(line) } });
});
afterAll(() => t?.close());

it('no plaintext key in the database, the logs or any answer', async () => {
  const pro = await t.createKey('pro', 'pro');
  const free = await t.createKey('free');
  const revoked = await t.createKey('pro', 'pro');
  const unknown = generateApiKey(); // well formed, never issued
  const secrets = [pro.key, free.key, revoked.key, unknown];
  await t.service.store.accounts.revokeKey(revoked.keyId, Date.now());

  const answers: Response[] = [];
  const gql = (key: string, query: string) => graphqlPost(t.a, key, query);
  for (const key of secrets) {
    answers.push(
      await t.a.get('/api/v1/markets').set(bearer(key)),
      await t.a.get('/api/v1/brief?symbols=BTC/USD').set(bearer(key)),
      await t.a.get('/api/v1/alerts?status=nope').set(bearer(key)),
      await t.b.get(`/api/v1/markets?apikey=${key}`),
      await t.b.get(`/api/v1/markets?%61pikey=%6D${key.slice(1)}`), // percent-encoded name and key
      await t.a.get(`/api/v1?apikey=${key}`), // a path Express serves
      await t.b.get(`/api/v1/alerts?limit=0&apikey=${key}`),
      await t.b.get(`/api/v1/nope?apikey=${key}&APIKEY=${key}`),
      await t.b.post(`/api/v1/markets?apikey=${key}`),
      await t.a.get('/api/v1/markets').set('Authorization', `Basic ${key}`),
      await t.a.get('/api/v1/markets').set('Authorization', `Bearer ${key}x`),
      await gql(key, '{ assetMarkets(limit: 1) { total } }'),
      await gql(key, '{ predictionMarkets(limit: 1) { count } }'),
      await gql(key, '{ nope }'),
      await t.a.get(`/nope?key=${key}`),
    );
  }
  for (let i = 0; i < 12; i++) answers.push(await t.a.get('/api/v1/markets').set(bearer(free.key))); // to 429
  expect(answers.map((r) => r.status)).toEqual(expect.arrayContaining([200, 400, 401, 403, 404, 405, 429]));

  const bodies = answers.map((r) => `${JSON.stringify(r.headers)}\n${r.text}`).join('\n');
  const logs = logLines.join('');
  expect(logs).toMatch(/"msg":"request"/); // the request log lines were written, and are searched
  const dbFiles = fs.readdirSync(t.dataDir).filter((f) => f.startsWith('market-gateway.sqlite'));
  const database = Buffer.concat(dbFiles.map((f) => fs.readFileSync(path.join(t.dataDir, f)))).toString('latin1');
  expect(database.length).toBeGreaterThan(0);

  for (const key of secrets) {
    const secretPart = key.slice(4); // without the public `mgw_` prefix
    expect(bodies).not.toContain(secretPart);
    expect(logs).not.toContain(secretPart);
    expect(database).not.toContain(secretPart);
  }
  console.log(
    `searched ${answers.length} answers, ${logLines.length} log lines and ${database.length} bytes of database for ${secrets.length} keys: none found`,
  );
});
