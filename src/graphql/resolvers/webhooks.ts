/** Resolvers of the Enterprise webhooks: the caller's own endpoints, through the same rules as the CLI (src/webhooks/endpoints.ts). */
import { HOUR_MS } from '../../domain/time.js';
import { deleteEndpoint, enableEndpoint, listDeliveries, registerEndpoint, replayDelivery, rotateSecret, sendTestEvent } from '../../webhooks/endpoints.js';
import type { Resolvers } from '../generated/resolvers.js';
import { accountScope } from '../../domain/scope.js';

export const webhookResolvers: Resolvers = {
  Query: {
    webhookEndpoints: (_root, _args, { principal, services }) => services.webhooks.repo.listEndpoints(accountScope(principal!.account.id)),
  },

  Mutation: {
    createWebhookEndpoint: (_root, { input }, { principal, services }) =>
      registerEndpoint(services.webhooks, principal!.account, { url: input.url, events: input.events ?? undefined }, services.now()),
    deleteWebhookEndpoint: (_root, { id }, { principal, services }) =>
      deleteEndpoint(services.webhooks, id, services.now(), { scope: accountScope(principal!.account.id) }),
    rotateWebhookSecret: (_root, { id, overlapHours }, { principal, services }) =>
      rotateSecret(services.webhooks, id, services.now(), { scope: accountScope(principal!.account.id), overlapMs: overlapHours * HOUR_MS }),
    enableWebhookEndpoint: (_root, { id }, { principal, services }) =>
      enableEndpoint(services.webhooks, id, services.now(), { scope: accountScope(principal!.account.id) }),
    sendTestWebhook: (_root, { id }, { principal, services }) => sendTestEvent(services.webhooks, id, services.now(), accountScope(principal!.account.id)),
    replayWebhookDelivery: (_root, { id }, { principal, services }) =>
      replayDelivery(services.webhooks, id, services.now(), accountScope(principal!.account.id)),
  },

  WebhookEndpoint: {
    previousSecretValidUntil: (e, _args, { services }) =>
      e.previousSecretUntil !== null && e.previousSecretUntil > services.now() ? e.previousSecretUntil : null,
    deliveries: (e, { limit }, { principal, services }) => listDeliveries(services.webhooks, e.id, limit, accountScope(principal!.account.id)),
  },

  WebhookDelivery: {
    nextAttemptAt: (d) => (d.status === 'pending' ? d.nextAttemptAt : null),
    lastStatusCode: (d) => d.lastStatus,
  },
};
