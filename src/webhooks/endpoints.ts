/**
 * Managing webhook endpoints, one set of rules for every entry point (the CLI, the GraphQL
 * mutations, the account dashboard): Enterprise accounts only, at most 10 endpoints each, URLs
 * checked against the destination policy, a secret shown once, rotations during which both secrets
 * sign, and every change to an endpoint written to its account's activity log (never a secret).
 */
import { type Actor, CLI_ACTOR } from '../auth/key-management.js';
import type { Account } from '../domain/account.js';
import { forbidden, invalid, notFound } from '../domain/errors.js';
import { type Scope, whereScoped } from '../domain/scope.js';
import { HOUR_MS, isoOrNull } from '../domain/time.js';
import {
  isSubscribableEventType,
  MAX_ENDPOINTS_PER_ACCOUNT,
  SUBSCRIBABLE_EVENT_TYPES,
  type SubscribableEventType,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../domain/webhooks.js';
import type { ActivityKind, ActivityRepository } from '../store/activity.js';
import type { WebhookRepository } from '../store/webhooks.js';
import { checkWebhookUrl, type DestinationPolicy } from './destination.js';
import { testEvent } from './events.js';
import { newSigningSecret } from './signing.js';

/** How long the previous secret keeps signing after a rotation, unless told otherwise. */
export const DEFAULT_ROTATION_OVERLAP_MS = 24 * HOUR_MS;
const MAX_ROTATION_OVERLAP_MS = 7 * 24 * HOUR_MS;

export interface WebhookManagement {
  repo: WebhookRepository;
  policy: DestinationPolicy;
  /** Where each change to an endpoint is recorded for its account. */
  activity: Pick<ActivityRepository, 'record'>;
  /** Called when a delivery was queued, so the worker (in this process, if it runs here) sends it now. */
  onQueued?: () => void;
}

/** Whose endpoints a change may touch (an account's: the dashboard, GraphQL; the operator's: the CLI), and who made it. */
export interface EndpointChange {
  scope: Scope;
  actor?: Actor | undefined;
}

function recordChange(m: WebhookManagement, endpoint: WebhookEndpoint, kind: ActivityKind, what: string, now: number, actor: Actor | undefined) {
  const detail = `webhook endpoint ${endpoint.id} (${endpoint.url}) ${what}`;
  return m.activity.record({ accountId: endpoint.accountId, at: now, kind, detail, clientAddress: (actor ?? CLI_ACTOR).clientAddress });
}

const missing = (id: string, scope: Scope) => notFound(`no webhook endpoint with id ${id}${whereScoped(scope)}`);

export function assertEnterprise(account: Account): void {
  if (account.marketDataPlan !== 'enterprise') throw forbidden('webhooks need the enterprise market-data plan');
}

/** The event types asked for: all of them when none is named. */
export function parseEventTypes(types: readonly string[] | undefined): SubscribableEventType[] {
  if (!types || types.length === 0) return [...SUBSCRIBABLE_EVENT_TYPES];
  const unknown = types.filter((t) => !isSubscribableEventType(t));
  if (unknown.length > 0) throw invalid(`unknown event type ${unknown.join(', ')}: choose from ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`);
  return [...new Set(types as SubscribableEventType[])];
}

export async function registerEndpoint(
  m: WebhookManagement,
  account: Account,
  input: { url: string; events?: readonly string[] | undefined },
  now: number,
  actor: Actor = CLI_ACTOR,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  assertEnterprise(account);
  const check = checkWebhookUrl(input.url, m.policy);
  if (!check.ok) throw invalid(`url refused: ${check.reason}`);
  const events = parseEventTypes(input.events);
  if ((await m.repo.countEndpoints(account.id)) >= MAX_ENDPOINTS_PER_ACCOUNT) {
    throw invalid(`an account has at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one first`);
  }
  const secret = newSigningSecret();
  const endpoint = await m.repo.createEndpoint({ accountId: account.id, url: check.url.href, events, secret, now });
  await recordChange(m, endpoint, 'webhook_added', `added for ${events.join(', ')}`, now, actor);
  return { endpoint, secret };
}

/** The endpoint, if in `scope`: another account's is missing. */
async function ownEndpoint(m: WebhookManagement, id: string, scope: Scope): Promise<WebhookEndpoint> {
  const endpoint = await m.repo.findEndpoint(id, scope);
  if (!endpoint) throw missing(id, scope);
  return endpoint;
}

export async function deleteEndpoint(m: WebhookManagement, id: string, now: number, change: EndpointChange): Promise<WebhookEndpoint> {
  const deleted = await m.repo.deleteEndpoint(id, change.scope);
  if (!deleted) throw missing(id, change.scope);
  await recordChange(m, deleted, 'webhook_deleted', 'deleted', now, change.actor);
  return deleted;
}

/** A rotation asked for by a form that saw an earlier one (`ifRotation`): the secret was rotated since, by that form sent before or by another. */
export class RotatedSince extends Error {
  readonly endpoint: WebhookEndpoint;

  constructor(endpoint: WebhookEndpoint) {
    super(`the signing secret of ${endpoint.url} was rotated since`);
    this.endpoint = endpoint;
  }
}

/**
 * A new signing secret for the endpoint. `ifRotation` (the dashboard's form: the endpoint's
 * `previousSecretUntil` when the form was shown, 0 before the first rotation): only if no rotation
 * came since, else `RotatedSince` and nothing changes; a form sent twice rotates once.
 */
export async function rotateSecret(
  m: WebhookManagement,
  id: string,
  now: number,
  options: EndpointChange & { overlapMs?: number | undefined; ifRotation?: number | undefined },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const overlap = options.overlapMs ?? DEFAULT_ROTATION_OVERLAP_MS;
  if (!Number.isInteger(overlap) || overlap < 0 || overlap > MAX_ROTATION_OVERLAP_MS) {
    throw invalid(`the overlap must be between 0 and ${MAX_ROTATION_OVERLAP_MS / HOUR_MS} hours`);
  }
  const secret = newSigningSecret();
  const result = await m.repo.rotateSecret(id, secret, now + overlap, options.scope, options.ifRotation);
  if (!result) throw missing(id, options.scope);
  const { endpoint, rotated } = result;
  if (!rotated) throw new RotatedSince(endpoint);
  const previous = overlap === 0 ? 'the previous one stopped signing' : `the previous one signs until ${isoOrNull(now + overlap)}`;
  await recordChange(m, endpoint, 'webhook_changed', `given a new signing secret; ${previous}`, now, options.actor);
  return { endpoint, secret };
}

export async function enableEndpoint(m: WebhookManagement, id: string, now: number, change: EndpointChange): Promise<WebhookEndpoint> {
  const endpoint = await m.repo.enableEndpoint(id, change.scope);
  if (!endpoint) throw missing(id, change.scope);
  await recordChange(m, endpoint, 'webhook_changed', 'enabled', now, change.actor);
  return endpoint;
}

/** Stops an endpoint by its owner's choice: it receives nothing, and its pending deliveries fail, until enabled. */
export async function disableEndpoint(m: WebhookManagement, id: string, now: number, change: EndpointChange): Promise<WebhookEndpoint> {
  const endpoint = await ownEndpoint(m, id, change.scope);
  if (endpoint.disabledAt !== null) return endpoint;
  const reason = 'disabled by its owner';
  await m.repo.disableEndpoint(endpoint.id, reason, now);
  await recordChange(m, endpoint, 'webhook_changed', 'disabled', now, change.actor);
  return { ...endpoint, disabledAt: now, disabledReason: reason };
}

/** Queues a `webhook.test` event for one endpoint. */
export async function sendTestEvent(m: WebhookManagement, id: string, now: number, scope: Scope): Promise<WebhookDelivery> {
  const endpoint = await ownEndpoint(m, id, scope);
  if (endpoint.disabledAt !== null) throw invalid(`webhook endpoint ${id} is disabled (${endpoint.disabledReason}); enable it first`);
  const delivery = await m.repo.enqueueFor(endpoint.id, testEvent(endpoint.accountId, endpoint.id, now));
  if (!delivery) throw notFound(`no webhook endpoint with id ${id}`);
  m.onQueued?.();
  return delivery;
}

/** Sends a delivery again from the start of the schedule, same `webhook-id` and body. */
export async function replayDelivery(m: WebhookManagement, id: string, now: number, scope: Scope): Promise<WebhookDelivery> {
  const delivery = await m.repo.findDelivery(id, scope);
  if (!delivery) throw notFound(`no webhook delivery with id ${id}${whereScoped(scope)}`);
  const endpoint = await ownEndpoint(m, delivery.endpointId, scope);
  if (endpoint.disabledAt !== null) throw invalid(`webhook endpoint ${endpoint.id} is disabled (${endpoint.disabledReason}); enable it first`);
  await m.repo.replay(id, now);
  m.onQueued?.();
  return { ...delivery, status: 'pending', attempts: 0, nextAttemptAt: now, finishedAt: null };
}

export async function listDeliveries(m: WebhookManagement, endpointId: string, limit: number, scope: Scope): Promise<WebhookDelivery[]> {
  await ownEndpoint(m, endpointId, scope);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalid('limit must be an integer from 1 to 100');
  return m.repo.listDeliveries(endpointId, limit, scope);
}
