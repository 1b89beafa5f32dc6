/** Deliveries signed as the Standard Webhooks specification says, judged by its reference package as a receiver would. */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { newSigningSecret, signDelivery } from '../../../src/webhooks/signing.js';

const body = JSON.stringify({ id: 'evt_1', type: 'price_alert.triggered', created_at: '2026-11-24T12:00:00.000Z', data: { id: 'alrt_1' } });

it('a receiver verifies a delivery with the endpoint secret and gets the event back', () => {
  const secret = newSigningSecret();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  const headers = signDelivery({ id: 'msg_evt_1_ep_1', body, at: Date.now(), secrets: [secret] });
  expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
});

it('a tampered body, another secret or a timestamp outside the tolerance is refused', () => {
  const secret = newSigningSecret();
  const headers = signDelivery({ id: 'msg_1', body, at: Date.now(), secrets: [secret] });
  const receiver = new Webhook(secret);
  expect(() => receiver.verify(body.replace('alrt_1', 'alrt_2'), { ...headers })).toThrow(WebhookVerificationError);
  expect(() => new Webhook(newSigningSecret()).verify(body, { ...headers })).toThrow(WebhookVerificationError);
  // Ten minutes old: a replay, outside the package's five-minute tolerance.
  const old = signDelivery({ id: 'msg_1', body, at: Date.now() - 10 * 60_000, secrets: [secret] });
  expect(() => receiver.verify(body, { ...old })).toThrow(/timestamp/i);
});

it('during a rotation both secrets sign, and a receiver holding either verifies', () => {
  const [before, after] = [newSigningSecret(), newSigningSecret()];
  const headers = signDelivery({ id: 'msg_2', body, at: Date.now(), secrets: [before, after] });
  expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
  for (const secret of [before, after]) expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
});

it("the headers: the delivery's id, its time in whole seconds, one signature per secret in the secrets' order", () => {
  const [first, second] = [newSigningSecret(), newSigningSecret()];
  const at = Date.UTC(2026, 10, 24, 12, 0, 0, 999);
  const headers = signDelivery({ id: 'msg_evt_9_ep_3', body, at, secrets: [first, second] });
  expect(headers['webhook-id']).toBe('msg_evt_9_ep_3');
  expect(headers['webhook-timestamp']).toBe(String(Date.UTC(2026, 10, 24, 12) / 1000));
  const [one, two] = headers['webhook-signature'].split(' ');
  expect(one).toBe(new Webhook(first).sign('msg_evt_9_ep_3', new Date(at), body));
  expect(two).toBe(new Webhook(second).sign('msg_evt_9_ep_3', new Date(at), body));
});

it('an endpoint without a signing secret is never sent unsigned', () => {
  expect(() => signDelivery({ id: 'msg_3', body, at: Date.now(), secrets: [] })).toThrow('a webhook endpoint needs a signing secret');
});

it('every new secret is new: 24 random bytes', () => {
  const secrets = Array.from({ length: 50 }, () => newSigningSecret());
  expect(new Set(secrets).size).toBe(50);
  for (const secret of secrets) expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
});
