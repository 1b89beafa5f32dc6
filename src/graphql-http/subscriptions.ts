/**
 * GraphQL subscriptions over WebSocket (graphql-ws's `graphql-transport-ws` protocol) on /graphql.
 * Each subscription goes through the listener's edge like every request (key -> plan -> quota: one
 * unit per subscription started), then a per-account cap by plan. The connection is bounded:
 * keep-alive pings, 64 KB messages, 3 s to initialise, a cap per instance, a client that stops
 * reading is closed (1013), a revoked key's connections are closed (4403) within a second of the
 * instance learning it, and shutdown closes every connection with 1001.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type DocumentNode, GraphQLError, type GraphQLSchema, getOperationAST, parse, validate } from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Authenticator, Principal } from '../auth/authenticator.js';
import { presentedKey } from '../auth/credentials.js';
import type { DegradedAnswers } from '../edge/degraded.js';
import type { Edge } from '../edge/edge.js';
import { ApiError } from '../edge/errors.js';
import { toGraphQLError } from '../edge/graphql-codes.js';
import type { GraphQLContext } from '../graphql/context.js';
import { createLoaders } from '../graphql/loaders.js';
import { analyzeOperation, collectFieldRequirements } from '../graphql/plan-requirements.js';
import type { GraphQLServices } from '../graphql/services.js';

export interface SubscriptionLimits {
  /** Open WebSocket connections on this listener; more are refused with 503 at the upgrade. */
  maxConnections: number;
  /** Subscriptions one account may hold at once on this instance, by its plans. */
  maxPerAccount(principal: Principal): number;
  keepAliveMs: number;
  initTimeoutMs: number;
  maxMessageBytes: number;
  /** How often open connections' keys are checked again (revocations). */
  recheckMs: number;
}

export const DEFAULT_SUBSCRIPTION_LIMITS: Omit<SubscriptionLimits, 'maxPerAccount'> = {
  maxConnections: 5_000,
  keepAliveMs: 12_000,
  initTimeoutMs: 3_000,
  maxMessageBytes: 64 * 1024,
  recheckMs: 500,
};

/** Close codes beyond graphql-ws's own (docs/subscriptions.md). */
export const CLOSE_SLOW_CONSUMER = 1013;
export const CLOSE_GOING_AWAY = 1001;

interface Options {
  schema: GraphQLSchema;
  edge: Edge;
  authenticator: Authenticator;
  services: GraphQLServices;
  degraded: DegradedAnswers;
  limits: SubscriptionLimits;
  validationRules: Parameters<typeof validate>[2];
  maxTokens: number;
  logger: Logger;
  onSubscribed?: () => void;
}

interface Connection {
  key: string;
  principal: Principal;
  /** Subscription ids open on this connection. */
  operations: Set<string>;
}

type Extra = { socket: WebSocket; request: IncomingMessage };

/** The key a connection presents: its connection parameters (`Authorization`, or `apikey` on B), else the upgrade request's header. */
function keyOf(params: Readonly<Record<string, unknown>> | undefined, request: IncomingMessage, edge: Edge): string | undefined {
  const authorization = params?.Authorization ?? params?.authorization;
  if (typeof authorization === 'string') return presentedKey(authorization, undefined, edge.variant);
  if (params && 'apikey' in params) return presentedKey(undefined, params.apikey, edge.variant);
  return presentedKey(request.headers.authorization, undefined, edge.variant);
}

export function createSubscriptionServer(options: Options) {
  const { schema, edge, limits, logger } = options;
  const fields = collectFieldRequirements(schema);
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes });
  const connections = new Map<WebSocket, Connection>();
  const perAccount = new Map<string, number>();

  const release = (connection: Connection, id: string) => {
    if (!connection.operations.delete(id)) return;
    const accountId = connection.principal.account.id;
    const left = (perAccount.get(accountId) ?? 1) - 1;
    if (left <= 0) perAccount.delete(accountId);
    else perAccount.set(accountId, left);
  };

  const refuse = (error: unknown): readonly GraphQLError[] => {
    if (error instanceof ApiError) return [toGraphQLError(error)];
    if (error instanceof GraphQLError) return [error];
    const degraded = options.degraded.answerFor('subscription', error);
    if (degraded) return [toGraphQLError(degraded)];
    logger.error({ err: error }, 'subscription refused by an unexpected error');
    return [toGraphQLError(new ApiError(500, 'internal error'))];
  };

  useServer<Record<string, unknown>, Extra>(
    {
      schema,
      connectionInitWaitTimeout: limits.initTimeoutMs,
      onConnect: async (ctx) => {
        const key = keyOf(ctx.connectionParams, ctx.extra.request, edge);
        const principal = key ? await options.authenticator.authenticate(key).catch(() => null) : null;
        if (!key || !principal) return false; // graphql-ws closes with 4403 Forbidden
        connections.set(ctx.extra.socket, { key, principal, operations: new Set() });
        return true;
      },
      onSubscribe: async (ctx, id, payload) => {
        const connection = connections.get(ctx.extra.socket);
        if (!connection) return [toGraphQLError(new ApiError(401, 'the connection is not authenticated'))];
        const outcome = await edge.admit({
          key: connection.key,
          route: (): DocumentNode => {
            let document: DocumentNode;
            try {
              document = parse(payload.query, { maxTokens: options.maxTokens });
            } catch (error) {
              throw new ApiError(400, (error as Error).message);
            }
            const errors = validate(schema, document, options.validationRules);
            if (errors.length > 0) throw new ApiError(400, errors.map((e) => e.message).join('; '));
            const operation = getOperationAST(document, payload.operationName);
            if (!operation) throw new ApiError(400, 'the document must hold one operation, or name it with operationName');
            if (operation.operation !== 'subscription')
              throw new ApiError(400, 'only subscriptions are served over WebSocket; send queries and mutations with POST /graphql');
            return document;
          },
          access: (document) => {
            const operation = getOperationAST(document, payload.operationName)!;
            return { requirements: analyzeOperation(schema, fields, document, operation).requirements, what: 'this subscription' };
          },
          parameters: (document) => document,
        });
        if (!outcome.admitted) return refuse(outcome.refusal);
        const principal = outcome.principal ?? connection.principal;
        const accountId = principal.account.id;
        const cap = limits.maxPerAccount(principal);
        const held = perAccount.get(accountId) ?? 0;
        if (held >= cap) {
          return [
            new GraphQLError(`at most ${cap} subscriptions at once for this account's plan; complete one first`, { extensions: { code: 'RATE_LIMITED' } }),
          ];
        }
        perAccount.set(accountId, held + 1);
        connection.operations.add(id);
        options.onSubscribed?.();
        const socket = ctx.extra.socket;
        const contextValue: GraphQLContext = {
          principal,
          services: options.services,
          loaders: createLoaders(options.services),
          transport: 'graphql',
          responseHeaders: {},
          stream: { onSlowConsumer: () => socket.close(CLOSE_SLOW_CONSUMER, 'slow consumer: too many messages waiting') },
        };
        return { schema, document: outcome.params, operationName: payload.operationName ?? null, variableValues: payload.variables ?? null, contextValue };
      },
      onComplete: (ctx, id) => {
        const connection = connections.get(ctx.extra.socket);
        if (connection) release(connection, id);
      },
      onClose: (ctx) => {
        const connection = connections.get(ctx.extra.socket);
        if (!connection) return;
        for (const id of [...connection.operations]) release(connection, id);
        connections.delete(ctx.extra.socket);
      },
    },
    wss,
    limits.keepAliveMs,
  );

  // A revoked key loses its connections: the authenticator learns revocations by polling the store.
  const recheck = setInterval(() => {
    for (const [socket, connection] of connections) {
      options.authenticator.authenticate(connection.key).then(
        (principal) => {
          if (!principal) socket.close(CloseCode.Forbidden, 'Forbidden: the key is no longer valid');
        },
        () => undefined, // the store is down: keep what was admitted
      );
    }
  }, limits.recheckMs);
  recheck.unref();

  return {
    /** Takes an HTTP upgrade to /graphql; anything else is refused. */
    upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
      if (wss.clients.size >= limits.maxConnections) {
        socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
    },
    /** Open connections on this listener. */
    connections: () => wss.clients.size,
    /** Closes every connection with 1001 and stops; waits for them to go (at most `graceMs`). */
    async close(graceMs = 2_000): Promise<void> {
      clearInterval(recheck);
      for (const client of wss.clients) client.close(CLOSE_GOING_AWAY, 'server shutting down');
      const deadline = Date.now() + graceMs;
      while (wss.clients.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

export type SubscriptionServer = ReturnType<typeof createSubscriptionServer>;
