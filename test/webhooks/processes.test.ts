/**
 * Webhooks across whole processes: two instances on one PostgreSQL send each event once. A kill -9
 * while a delivery is in flight (the restarted service sends it again, same webhook-id, on SQLite
 * and PostgreSQL) is one of the checks of test/integration/durability.test.ts's kill per engine.
 */
import { type ChildService, spawnService } from '../support/child-service.js';
import { cliKey, runCliInProcess } from '../support/cli-in-process.js';
import { postgresAvailable, PROCESS_ENGINES, tempDataDir } from '../support/engines.js';
import { createPriceAlert } from '../support/graphql-call.js';
import { within } from '../support/wait.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

const pg = await postgresAvailable();

const WEBHOOK_ENV = { WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_POLL_MS: '100', DEMO_TICK_MS: '200' };

/** An Enterprise key and an endpoint at the receiver, made with the CLI (in-process) as an operator would. */
async function enterpriseEndpoint(env: Record<string, string>, url: string) {
  const key = await cliKey(env, '--plan', 'enterprise');
  const created = await runCliInProcess(['webhooks', 'create', '--key-id', key.id, '--url', url, '--json'], env);
  expect(created.stderr).not.toMatch(/error/);
  const endpoint = JSON.parse(created.stdout) as { id: string; secret: string };
  return { key: key.key, endpointId: endpoint.id, secret: endpoint.secret };
}

/** Alerts that the next demo tick triggers (any price is above a cent). */
async function alertsThatTrigger(base: string, key: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    expect((await createPriceAlert(base, key, 0.01)).errors).toBeUndefined();
  }
}

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
        deliveries = JSON.parse((await runCliInProcess(['webhooks', 'deliveries', endpointId, '--limit', '100', '--json'], env)).stdout);
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
