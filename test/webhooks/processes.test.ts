/**
 * Webhooks across whole processes, on the stores operators run: kill -9 while a delivery is in
 * flight loses nothing (the restarted service sends it again, same webhook-id), on SQLite and
 * PostgreSQL; two instances on one PostgreSQL send each event once.
 */
import { Webhook } from 'standardwebhooks';
import { type ChildService, spawnService } from '../support/child-service.js';
import { runCli } from '../support/cli.js';
import { postgresAvailable, PROCESS_ENGINES, tempDataDir } from '../support/engines.js';
import { within } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const pg = await postgresAvailable();

const WEBHOOK_ENV = { WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_POLL_MS: '100', DEMO_TICK_MS: '200' };

const gql = async (base: string, key: string, query: string, variables?: object) => {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
};

/** An Enterprise key and an endpoint at the receiver, made with the CLI as an operator would. */
async function enterpriseEndpoint(env: Record<string, string>, url: string) {
  const key = JSON.parse((await runCli(['keys', 'create', '--plan', 'enterprise', '--json'], env)).stdout) as { id: string; key: string };
  const created = await runCli(['webhooks', 'create', '--key-id', key.id, '--url', url, '--json'], env);
  expect(created.stderr).not.toMatch(/error/);
  const endpoint = JSON.parse(created.stdout) as { id: string; secret: string };
  return { key: key.key, endpointId: endpoint.id, secret: endpoint.secret };
}

/** Alerts that the next demo tick triggers (any price is above a cent). */
async function alertsThatTrigger(base: string, key: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const answer = await gql(base, key, 'mutation($in: CreatePriceAlertInput!) { createPriceAlert(input: $in) { id } }', {
      in: { symbol: 'BTC/USD', kind: 'PRICE_ABOVE', threshold: 0.01 },
    });
    expect(answer.errors).toBeUndefined();
  }
}

describe.each(PROCESS_ENGINES)('webhooks and kill -9 on $name', (engine) => {
  const run = engine.name === 'PostgreSQL' && !pg ? it.skip : it;

  run(
    'a delivery in flight when the process is killed is sent after the restart, with the same webhook-id',
    async () => {
      const { env: base, drop } = await engine.env();
      const env = { ...base, ...WEBHOOK_ENV };
      const receiver: WebhookReceiver = await startWebhookReceiver(['hang']);
      const services: ChildService[] = [];
      try {
        const { key, endpointId, secret } = await enterpriseEndpoint(env, receiver.url());
        const first = await spawnService(env);
        services.push(first);
        await alertsThatTrigger(first.a, key, 1);
        // The alert moved and its event went out; the receiver holds the attempt open.
        await within(20_000, () => receiver.received.length === 1);
        expect(await first.stop('SIGKILL')).toBeNull();

        receiver.answer([{ status: 204 }]);
        const second = await spawnService(env);
        services.push(second);
        await within(20_000, () => receiver.received.length === 2);
        const [lost, resent] = receiver.received;
        expect(resent!.headers['webhook-id']).toBe(lost!.headers['webhook-id']);
        expect(resent!.body).toBe(lost!.body);
        expect(new Webhook(secret).verify(resent!.body, resent!.headers)).toMatchObject({ type: 'price_alert.triggered' });

        let deliveries: { id: string; status: string; attempts: number }[] = [];
        await within(20_000, async () => {
          deliveries = JSON.parse((await runCli(['webhooks', 'deliveries', endpointId, '--json'], env)).stdout);
          return deliveries[0]?.status === 'delivered';
        });
        // The killed attempt was never recorded: the one that counted is the restart's.
        expect(deliveries).toEqual([expect.objectContaining({ id: lost!.headers['webhook-id'], status: 'delivered', attempts: 1 })]);
        // Nothing else came: the alert triggered once, its event was sent once more.
        expect(receiver.received).toHaveLength(2);
      } finally {
        await Promise.all(services.map((s) => (s.child.exitCode === null && s.child.signalCode === null ? s.stop('SIGKILL') : undefined)));
        await receiver.close();
        await drop();
      }
    },
    90_000,
  );
});

(pg ? it : it.skip)(
  'two instances on one PostgreSQL send each event once (the one holding the jobs lease delivers)',
  async () => {
    const { env: base, drop } = await PROCESS_ENGINES[1]!.env();
    const env = { ...base, ...WEBHOOK_ENV };
    const receiver = await startWebhookReceiver([{ status: 200 }]);
    const services: ChildService[] = [];
    try {
      const { key, endpointId } = await enterpriseEndpoint(env, receiver.url());
      services.push(await spawnService(env));
      services.push(await spawnService({ ...env, DATA_DIR: tempDataDir() }));
      // Alerts created on both instances' listeners.
      await alertsThatTrigger(services[0]!.a, key, 10);
      await alertsThatTrigger(services[1]!.a, key, 10);
      await within(30_000, () => new Set(receiver.received.map((r) => r.headers['webhook-id'])).size === 20);
      // Both instances keep polling the queue meanwhile; nothing is sent twice.
      let deliveries: { status: string; attempts: number }[] = [];
      await within(20_000, async () => {
        deliveries = JSON.parse((await runCli(['webhooks', 'deliveries', endpointId, '--limit', '100', '--json'], env)).stdout);
        return deliveries.length === 20 && deliveries.every((d) => d.status === 'delivered');
      });
      await new Promise((r) => setTimeout(r, 1_000)); // ten poll intervals of each instance
      expect(receiver.received).toHaveLength(20);
      expect(deliveries.every((d) => d.attempts === 1)).toBe(true);
    } finally {
      await Promise.all(services.map((s) => s.stop('SIGTERM')));
      await receiver.close();
      await drop();
    }
  },
  90_000,
);
