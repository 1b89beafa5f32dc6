/**
 * The dashboard with SMTP_URL, against a real SMTP server on loopback: email verification after
 * sign-up, a notice (not a second account) when the address is taken, and a password reset by mail
 * whose answer is the same whether or not the address has an account.
 */
import supertest from 'supertest';
import { csrfOf, signedUpAgent, submit } from '../support/dashboard.js';
import { closeAll, startTestService, type TestService } from '../support/service.js';
import { type ReceivedMail, startSmtpSink } from '../support/smtp-sink.js';
import { within } from '../support/wait.js';

let t: TestService;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await startTestService({ env: { SMTP_URL: smtp.url, SMTP_FROM: 'gateway <no-reply@example.com>' } });
});
afterAll(async () => {
  await closeAll(t);
  await smtp?.close();
});

const mailTo = async (to: string, subject: RegExp): Promise<ReceivedMail> => {
  await within(5_000, () => smtp.mails.some((m) => m.to === to && subject.test(m.subject)));
  return smtp.mails.find((m) => m.to === to && subject.test(m.subject))!;
};
const linkIn = (mail: ReceivedMail) => new URL(/https?:\/\/\S+/.exec(mail.text)![0]);

it('sign-up sends a confirmation link that confirms the address once', async () => {
  const agent = await signedUpAgent(t.urls.a, 'confirm@example.com');
  const mail = await mailTo('confirm@example.com', /Confirm your email/);
  expect((await agent.get('/account/security')).text).toContain('(not confirmed)');
  const link = linkIn(mail);
  expect((await supertest(t.urls.a).get(`${link.pathname}${link.search}`)).status).toBe(200);
  expect((await agent.get('/account/security')).text).toContain('(confirmed)');
  expect((await supertest(t.urls.a).get(`${link.pathname}${link.search}`)).status).toBe(404); // once
});

it('a taken address gets a notice by mail, and the page says nothing more than for a free one', async () => {
  await signedUpAgent(t.urls.a, 'owner@example.com');
  const again = await submit(supertest.agent(t.urls.a), '/account/sign-up', { email: 'owner@example.com', password: 'someone elses password' });
  expect(again.headers.location).toBe('/account/sign-in?done=signed-up');
  const notice = await mailTo('owner@example.com', /tried to sign up/);
  expect(notice.text).toContain('/account/sign-in');
});

it('a reset by mail: the same answer for any address, a link that works once and ends every session', async () => {
  const signedIn = await signedUpAgent(t.urls.a, 'forgot@example.com');
  const known = await submit(supertest.agent(t.urls.a), '/account/reset', { email: 'forgot@example.com' });
  const unknown = await submit(supertest.agent(t.urls.a), '/account/reset', { email: 'stranger@example.com' });
  expect([known.status, known.headers.location]).toEqual([unknown.status, unknown.headers.location]);
  const link = linkIn(await mailTo('forgot@example.com', /Reset your/));
  expect(smtp.mails.some((m) => m.to === 'stranger@example.com')).toBe(false);

  const browser = supertest.agent(t.urls.a);
  const form = await browser.get(`${link.pathname}${link.search}`);
  const done = await browser
    .post('/account/reset')
    .type('form')
    .send({ csrf: csrfOf(form.text), token: link.searchParams.get('token')!, password: 'a new password by mail' });
  expect(done.headers.location).toBe('/account/sign-in?done=reset');
  expect((await signedIn.get('/account/security')).status).toBe(303);
  const reused = await browser
    .post('/account/reset')
    .type('form')
    .send({ csrf: csrfOf(form.text), token: link.searchParams.get('token')!, password: 'yet another password' });
  expect(reused.status).toBe(400);
  expect(
    (await submit(supertest.agent(t.urls.a), '/account/sign-in', { email: 'forgot@example.com', password: 'a new password by mail' })).headers.location,
  ).toBe('/account/keys');
});
