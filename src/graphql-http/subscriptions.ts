/**
 * GraphQL subscriptions over WebSocket (graphql-ws's `graphql-transport-ws` protocol) on /graphql.
 * Each subscription is admitted by the gate (the listener's edge, then the account's cap). The
 * connection is bounded: keep-alive pings, 64 KB messages, 3 s to initialise, a cap per listener; a
 * client that stops reading is closed (1013), a revoked key's connections are closed (4403) within
 * a second of the instance learning it, and shutdown closes every connection with 1001.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { CloseCode, handleProtocols, makeServer, type ServerOptions } from 'graphql-ws';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Authenticator } from '../auth/authenticator.js';
import { presentedKey } from '../auth/api-key.js';
import type { Edge } from '../edge/edge.js';
import { ApiError } from '../domain/refusal.js';
import type { SubscriptionGate } from './subscription-gate.js';
import { toGraphQLErrors } from '../edge/graphql-codes.js';

export interface SubscriptionLimits {
  /** Open WebSocket connections on this listener; more are refused with 503 at the upgrade. */
  maxConnections: number;
  keepAliveMs: number;
  initTimeoutMs: number;
  maxMessageBytes: number;
  /** How often open connections' keys are checked again (revocations). */
  recheckMs: number;
}

export const DEFAULT_SUBSCRIPTION_LIMITS: SubscriptionLimits = {
  maxConnections: 5_000,
  keepAliveMs: 12_000,
  initTimeoutMs: 3_000,
  maxMessageBytes: 64 * 1024,
  recheckMs: 500,
};

/** Close codes beyond graphql-ws's own (docs/subscriptions.md). 1013, try again later: a slow consumer, or the store down at connect. */
export const CLOSE_SLOW_CONSUMER = 1013;
export const CLOSE_GOING_AWAY = 1001;

interface Options {
  /** The headers every answer of the listener carries, for the 101 that opens a connection. */
  stamp: (request: IncomingMessage) => readonly (readonly [string, string])[];
  schema: GraphQLSchema;
  edge: Edge;
  gate: SubscriptionGate;
  authenticator: Authenticator;
  limits: SubscriptionLimits;
  logger: Logger;
}

interface Connection {
  key: string;
  /** What ends each subscription's hold, by operation id. */
  holds: Map<string, () => void>;
}

type Extra = { socket: WebSocket; request: IncomingMessage };
type GraphQLWsServer = ReturnType<typeof makeServer<Record<string, unknown>, Extra>>;

/** The key a connection presents: its connection parameters (`Authorization`, or `apikey` on B), else the upgrade request's header. */
function keyOf(params: Readonly<Record<string, unknown>> | undefined, request: IncomingMessage, edge: Edge): string | undefined {
  const authorization = params?.Authorization ?? params?.authorization;
  if (typeof authorization === 'string') return presentedKey(authorization, undefined, edge.variant);
  if (params && 'apikey' in params) return presentedKey(undefined, params.apikey, edge.variant);
  return presentedKey(request.headers.authorization, undefined, edge.variant);
}

/**
 * The glue between ws and graphql-ws for one socket: sends wait for the socket (backpressure
 * reaches the streams), pings keep the connection alive, and a socket's error (a message over the
 * limit, a broken frame) is the client's: logged in one line, and ws closes the socket with the
 * matching code.
 */
function serveSocket(server: GraphQLWsServer, socket: WebSocket, request: IncomingMessage, keepAliveMs: number, logger: Logger): void {
  socket.on('error', (error) => logger.info({ reason: error.message }, 'subscription connection error'));
  let alive = true;
  socket.on('pong', () => {
    alive = true;
  });
  const ping = setInterval(() => {
    if (!alive) return void socket.terminate();
    alive = false;
    socket.ping();
  }, keepAliveMs);
  const closed = server.opened(
    {
      protocol: socket.protocol,
      send: (data) =>
        new Promise<void>((resolve, reject) => {
          if (socket.readyState !== socket.OPEN) return resolve();
          socket.send(data, (error) => (error ? reject(error) : resolve()));
        }),
      close: (code, reason) => socket.close(code, reason),
      onMessage: (receive) =>
        socket.on('message', (data) => {
          receive(String(data)).catch((error: Error) => {
            logger.warn({ reason: error.message }, 'subscription message failed');
            socket.close(CloseCode.InternalServerError, 'Internal server error');
          });
        }),
    },
    { socket, request },
  );
  socket.once('close', (code, reason) => {
    clearInterval(ping);
    void closed(code, String(reason));
  });
}

/** Closes (4403) the connections whose key is no longer valid; a store that cannot say keeps what was admitted. */
function closeRevoked(connections: ReadonlyMap<WebSocket, Connection>, authenticator: Authenticator): void {
  for (const [socket, connection] of connections) {
    authenticator.authenticate(connection.key).then(
      (principal) => {
        if (!principal) socket.close(CloseCode.Forbidden, 'Forbidden: the key is no longer valid');
      },
      () => undefined,
    );
  }
}

/** Ends a subscription's hold on its account's cap. */
function release(connection: Connection, id: string): void {
  connection.holds.get(id)?.();
  connection.holds.delete(id);
}

/** graphql-ws's hooks: a connection's key checked at connect, each subscription admitted by the gate, results formatted, holds released. */
function graphqlWsOptions(options: Options, connections: Map<WebSocket, Connection>): ServerOptions<Record<string, unknown>, Extra> {
  return {
    schema: options.schema,
    connectionInitWaitTimeout: options.limits.initTimeoutMs,
    onConnect: async (ctx) => {
      const key = keyOf(ctx.connectionParams, ctx.extra.request, options.edge);
      let principal: Awaited<ReturnType<Authenticator['authenticate']>> = null;
      try {
        principal = key ? await options.authenticator.authenticate(key) : null;
      } catch {
        // The store cannot say: not the client's fault, so not 4403. It may come back shortly.
        ctx.extra.socket.close(CLOSE_SLOW_CONSUMER, 'a dependency is temporarily unavailable; retry shortly');
        return false;
      }
      if (!key || !principal) return false; // graphql-ws closes with 4403 Forbidden
      connections.set(ctx.extra.socket, { key, holds: new Map() });
      return true;
    },
    onSubscribe: async (ctx, id, payload) => {
      const connection = connections.get(ctx.extra.socket)!;
      const socket = ctx.extra.socket;
      const admission = await options.gate.admit({
        transport: 'graphql-ws',
        key: connection.key,
        query: payload.query,
        operationName: payload.operationName,
        variables: payload.variables,
        onSlowConsumer: () => socket.close(CLOSE_SLOW_CONSUMER, 'slow consumer: too many messages waiting'),
      });
      if (!admission.admitted) return toGraphQLErrors(admission.refusal);
      connection.holds.set(id, admission.release);
      return admission.args;
    },
    // Results and errors formatted like every /graphql answer (a resolver's DomainError: NOT_FOUND...).
    onNext: (_ctx, _id, _payload, _args, result) => options.gate.format(result),
    onError: (_ctx, _id, _payload, errors) => options.gate.format({ errors }).errors as never,
    onComplete: (ctx, id) => {
      const connection = connections.get(ctx.extra.socket);
      if (connection) release(connection, id);
    },
    onClose: (ctx) => {
      const connection = connections.get(ctx.extra.socket);
      if (!connection) return;
      for (const id of [...connection.holds.keys()]) release(connection, id);
      connections.delete(ctx.extra.socket);
    },
  };
}

export function createSubscriptionServer(options: Options) {
  const { limits } = options;
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes, handleProtocols });
  // The 101 that opens a connection is an answer too: it carries the listener's stamp.
  wss.on('headers', (headers: string[], request: IncomingMessage) => {
    for (const [name, value] of options.stamp(request)) headers.push(`${name}: ${value}`);
  });
  const connections = new Map<WebSocket, Connection>();

  const server = makeServer(graphqlWsOptions(options, connections));

  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => serveSocket(server, socket, request, limits.keepAliveMs, options.logger));

  // A revoked key loses its connections: the authenticator learns revocations by polling the store.
  const recheck = setInterval(() => closeRevoked(connections, options.authenticator), limits.recheckMs);
  recheck.unref();

  return {
    /** Takes an HTTP upgrade of /graphql, or says why not (the listener answers it). */
    upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): ApiError | undefined {
      if (wss.clients.size >= limits.maxConnections) {
        return new ApiError(503, `too many subscription connections on this listener (at most ${limits.maxConnections}); retry shortly`, {
          'Retry-After': '1',
        });
      }
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
      return undefined;
    },
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
