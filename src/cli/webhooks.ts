/**
 * `webhooks create|list|delete|rotate-secret|enable|deliveries|replay|test`: Enterprise webhook
 * endpoints, through the same rules as the GraphQL mutations (src/webhooks/endpoints.ts). The
 * running server's worker sends what these queue; the CLI itself never connects to a receiver.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { Account } from '../domain/account.js';
import { HOUR_MS } from '../domain/time.js';
import { SUBSCRIBABLE_EVENT_TYPES, type WebhookDelivery, type WebhookEndpoint } from '../domain/webhooks.js';
import type { Store } from '../store/index.js';
import type { WebhookManagement } from '../webhooks/endpoints.js';
import { loadCliConfig, withStore } from './context.js';
import { CliError } from './errors.js';
import { isoOrNull, printJson, printLines, printTable } from './output.js';
import { parseNonEmpty } from './parse.js';
import { accountScope, OPERATOR_SCOPE } from '../domain/scope.js';

function parseCount(min: number, max: number) {
  return (value: string): number => {
    const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!(n >= min && n <= max)) throw new InvalidArgumentError(`Expected a whole number from ${min} to ${max}.`);
    return n;
  };
}

/** Runs `work` with the store and the webhook rules of the server's configuration. */
async function withWebhooks<T>(work: (m: WebhookManagement, store: Store, endpoints: typeof import('../webhooks/endpoints.js')) => Promise<T>): Promise<T> {
  const [config, endpoints] = await Promise.all([loadCliConfig(), import('../webhooks/endpoints.js')]);
  return withStore((store) => work({ repo: store.webhooks, activity: store.activity, policy: config.webhooks.policy }, store, endpoints));
}

async function accountOf(store: Store, options: { keyId?: string; account?: string }): Promise<Account> {
  if (options.keyId) {
    const key = await store.accounts.findKeyById(options.keyId);
    if (!key) throw new CliError(`no key with id ${options.keyId} (see: keys list)`);
    return key.account;
  }
  const account = await store.accounts.findAccount(options.account!);
  if (!account) throw new CliError(`no account with id ${options.account} (see: keys list)`);
  return account;
}

const stateOf = (e: WebhookEndpoint) => (e.disabledAt === null ? 'enabled' : `disabled ${isoOrNull(e.disabledAt)}: ${e.disabledReason}`);

function endpointJson(e: WebhookEndpoint) {
  return {
    id: e.id,
    account_id: e.accountId,
    url: e.url,
    events: e.events,
    created_at: isoOrNull(e.createdAt),
    previous_secret_valid_until: e.previousSecretUntil !== null && e.previousSecretUntil > Date.now() ? isoOrNull(e.previousSecretUntil) : null,
    disabled_at: isoOrNull(e.disabledAt),
    disabled_reason: e.disabledReason,
  };
}

function deliveryJson(d: WebhookDelivery) {
  return {
    id: d.id,
    event_id: d.eventId,
    event_type: d.eventType,
    endpoint_id: d.endpointId,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.status === 'pending' ? isoOrNull(d.nextAttemptAt) : null,
    last_attempt_at: isoOrNull(d.lastAttemptAt),
    last_status: d.lastStatus,
    last_error: d.lastError,
    last_response: d.lastResponse,
    created_at: isoOrNull(d.createdAt),
    finished_at: isoOrNull(d.finishedAt),
  };
}

function printSecret(endpoint: WebhookEndpoint, secret: string, json: boolean | undefined, what: string): void {
  if (json) {
    printJson({ ...endpointJson(endpoint), secret });
    return;
  }
  printLines(
    `${what} ${endpoint.id}: ${endpoint.url}`,
    `  events: ${endpoint.events.join(', ')}`,
    `  signing secret (shown once, keep it with the receiver): ${secret}`,
    ...(endpoint.previousSecretUntil !== null ? [`  the previous secret also signs until ${isoOrNull(endpoint.previousSecretUntil)}`] : []),
  );
}

export function registerWebhooks(program: Command): void {
  const webhooks = program.command('webhooks').description('manage the webhook endpoints of Enterprise accounts, and their deliveries');
  registerEndpointCommands(webhooks);
  registerDeliveryCommands(webhooks);
}

/** create, list, delete, rotate-secret, enable. */
function registerEndpointCommands(webhooks: Command): void {
  webhooks
    .command('create')
    .description('register an endpoint for an Enterprise account (at most 10 each); its signing secret is shown once')
    .addOption(new Option('--key-id <id>', 'the account of this key (key_...)').conflicts('account'))
    .option('--account <id>', 'the account (acct_...)')
    .requiredOption('--url <url>', 'https:// receiver URL (http:// only with WEBHOOK_ALLOW_HTTP=1)', parseNonEmpty)
    .option('--events <types>', `comma-separated, from ${SUBSCRIBABLE_EVENT_TYPES.join(', ')} (default: all)`, parseNonEmpty)
    .option('--json', 'print one JSON object, with the secret')
    .action(async (options: { keyId?: string; account?: string; url: string; events?: string; json?: boolean }, command: Command) => {
      if (!options.keyId && !options.account) command.error('error: give --key-id or --account');
      const created = await withWebhooks(async (m, store, { registerEndpoint }) =>
        registerEndpoint(m, await accountOf(store, options), { url: options.url, events: options.events?.split(',').map((t) => t.trim()) }, Date.now()),
      );
      printSecret(created.endpoint, created.secret, options.json, 'Created webhook endpoint');
    });

  webhooks
    .command('list')
    .description("list endpoints, oldest first: every account's, or one account's; a disabled one says why")
    .addOption(new Option('--key-id <id>', 'only the endpoints of the account of this key').conflicts('account'))
    .option('--account <id>', 'only the endpoints of this account')
    .option('--json', 'print a JSON array')
    .action(async (options: { keyId?: string; account?: string; json?: boolean }) => {
      const endpoints = await withWebhooks(async (m, store) =>
        m.repo.listEndpoints(options.keyId || options.account ? accountScope((await accountOf(store, options)).id) : OPERATOR_SCOPE),
      );
      if (options.json) return printJson(endpoints.map(endpointJson));
      if (endpoints.length === 0) return printLines('No webhook endpoints.');
      printTable(
        ['ID', 'ACCOUNT', 'URL', 'EVENTS', 'CREATED', 'STATE'],
        endpoints.map((e) => [e.id, e.accountId, e.url, e.events.join(','), isoOrNull(e.createdAt) ?? '', stateOf(e)]),
      );
    });

  webhooks
    .command('delete')
    .description('delete an endpoint; its pending deliveries are never sent')
    .argument('<id>', 'endpoint id (we_...)')
    .action(async (id: string) => {
      const deleted = await withWebhooks((m, _store, { deleteEndpoint }) => deleteEndpoint(m, id, Date.now(), { scope: OPERATOR_SCOPE }));
      printLines(`Deleted webhook endpoint ${deleted.id} (${deleted.url})`);
    });

  webhooks
    .command('rotate-secret')
    .description('give an endpoint a new signing secret; the current one keeps signing beside it for the overlap')
    .argument('<id>', 'endpoint id (we_...)')
    .option('--overlap-hours <hours>', 'how long the current secret keeps signing (0 to 168)', parseCount(0, 168), 24)
    .option('--json', 'print one JSON object, with the new secret')
    .action(async (id: string, options: { overlapHours: number; json?: boolean }) => {
      const rotated = await withWebhooks((m, _store, { rotateSecret }) =>
        rotateSecret(m, id, Date.now(), { scope: OPERATOR_SCOPE, overlapMs: options.overlapHours * HOUR_MS }),
      );
      printSecret(rotated.endpoint, rotated.secret, options.json, 'New signing secret for');
    });

  webhooks
    .command('enable')
    .description('let a disabled endpoint receive events again (new events; replay the ones it missed)')
    .argument('<id>', 'endpoint id (we_...)')
    .action(async (id: string) => {
      const endpoint = await withWebhooks((m, _store, { enableEndpoint }) => enableEndpoint(m, id, Date.now(), { scope: OPERATOR_SCOPE }));
      printLines(`Enabled webhook endpoint ${endpoint.id} (${endpoint.url})`);
    });
}

/** deliveries, replay, test. */
function registerDeliveryCommands(webhooks: Command): void {
  webhooks
    .command('deliveries')
    .description("an endpoint's latest deliveries, newest first, with their last attempt")
    .argument('<endpoint-id>', 'endpoint id (we_...)')
    .option('--limit <n>', 'how many (1 to 100)', parseCount(1, 100), 20)
    .option('--json', 'print a JSON array')
    .action(async (endpointId: string, options: { limit: number; json?: boolean }) => {
      const deliveries = await withWebhooks((m, _store, { listDeliveries }) => listDeliveries(m, endpointId, options.limit, OPERATOR_SCOPE));
      if (options.json) return printJson(deliveries.map(deliveryJson));
      if (deliveries.length === 0) return printLines('No deliveries yet.');
      printTable(
        ['ID', 'EVENT', 'STATUS', 'ATTEMPTS', 'CREATED', 'LAST ATTEMPT', 'NEXT', 'LAST RESULT'],
        deliveries.map((d) => [
          d.id,
          d.eventType,
          d.status,
          String(d.attempts),
          isoOrNull(d.createdAt) ?? '',
          isoOrNull(d.lastAttemptAt) ?? '-',
          d.status === 'pending' ? (isoOrNull(d.nextAttemptAt) ?? '') : '-',
          d.lastError ?? (d.lastStatus === null ? '-' : String(d.lastStatus)),
        ]),
      );
    });

  webhooks
    .command('replay')
    .description('send a delivery again from the start of the retry schedule (same webhook-id and body); the running server sends it')
    .argument('<delivery-id>', 'delivery id (msg_...)')
    .action(async (id: string) => {
      const delivery = await withWebhooks((m, _store, { replayDelivery }) => replayDelivery(m, id, Date.now(), OPERATOR_SCOPE));
      printLines(`Queued ${delivery.id} (${delivery.eventType}) again; the running server sends it (see: webhooks deliveries ${delivery.endpointId})`);
    });

  webhooks
    .command('test')
    .description('queue a webhook.test event for an endpoint; the running server sends it')
    .argument('<endpoint-id>', 'endpoint id (we_...)')
    .option('--json', 'print the queued delivery as one JSON object')
    .action(async (id: string, options: { json?: boolean }) => {
      const delivery = await withWebhooks((m, _store, { sendTestEvent }) => sendTestEvent(m, id, Date.now(), OPERATOR_SCOPE));
      if (options.json) return printJson(deliveryJson(delivery));
      printLines(`Queued test delivery ${delivery.id}; the running server sends it (see: webhooks deliveries ${id})`);
    });
}
