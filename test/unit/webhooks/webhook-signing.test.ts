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
