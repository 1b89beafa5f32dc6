/**
 * Two instances on one PostgreSQL: a person signed in on one is signed in on the other
 * with the same cookie (sessions live in the store), signing out on one ends it on both, and a key
 * revoked through one is refused by both within 2 s.
 */
import supertest from 'supertest';
import { revokeKey, issueKey } from '../../src/auth/key-management.js';
import { createPgSchema, postgresAvailable } from '../support/engines.js';
import { csrfOf, signedUpAgent } from '../support/dashboard.js';
import { bearer, closeAll, startTestService } from '../support/service.js';
import { within } from '../support/wait.js';
import { accountScope } from '../../src/domain/scope.js';

const maybe = (await postgresAvailable()) ? it : it.skip;

maybe('one cookie works on both instances; sign-out and a revoked key reach both within 2 s', async () => {
  const schema = await createPgSchema();
  const env = { DATABASE_URL: schema.url };
  const one = await startTestService({ env });
  const two = await startTestService({ env });
  try {
    const agent = await signedUpAgent(one.urls.a, 'both@example.com');
    const page = await agent.get('/account/security');
    const cookie = String(agent.jar.getCookie('mgw_session', { domain: '127.0.0.1', path: '/account', secure: false, script: false })?.toValueString() ?? '');
    expect(cookie).toMatch(/^mgw_session=/);
    const onTwo = await supertest(two.urls.b).get('/account/security').set('Cookie', cookie);
    expect(onTwo.status).toBe(200);
    expect(onTwo.text).toContain('both@example.com');

    const user = (await one.service.store.users.findByEmail('both@example.com'))!;
    const account = (await one.service.store.accounts.findAccount(user.accountId))!;
    const issued = await issueKey(one.service.store, account, { name: 'shared' }, Date.now(), { clientAddress: '127.0.0.1' });
    for (const t of [one, two]) expect((await t.a.get('/api/v1/markets').set(bearer(issued.key))).status).toBe(200);
    await revokeKey(two.service.store, issued.record.id, Date.now(), { clientAddress: '127.0.0.1' }, accountScope(account.id));
    const refusedWithin = await within(2_000, async () => {
      const [a, b] = await Promise.all([one, two].map((t) => t.a.get('/api/v1/markets').set(bearer(issued.key))));
      return a!.status === 401 && b!.status === 401;
    });
    expect(refusedWithin).toBeLessThan(2_000);

    await agent
      .post('/account/sign-out')
      .type('form')
      .send({ csrf: csrfOf(page.text) });
    expect((await supertest(two.urls.a).get('/account/security').set('Cookie', cookie)).status).toBe(303);
  } finally {
    await closeAll(one, two);
    await schema.drop();
  }
});
