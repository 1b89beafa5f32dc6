/**
 * The node:http server of one listener: the limits a public API needs, and the one pipeline every
 * request passes (an ordered list of steps with one error renderer), whose stamp (request id,
 * security headers) also goes on the answers written on the socket before any step. Timeouts
 * are ordered for a load balancer in front: its idle timeout is typically 60 s, so keep-alive outlives it
 * (the balancer, not us, closes idle connections: no request races a close) and the header
 * timeout outlives keep-alive. Errors node answers itself, before any handler runs (headers too
 * large, a malformed request, a request too slow), still get a JSON body in the variant's envelope.
 * What runs once an answer is finished (its metrics, its log line) is handed to `whenFinished`.
 */
import { randomUUID } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import { createServer, type IncomingMessage, STATUS_CODES, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import type { Variant } from '../domain/variant.js';
import { ApiError, type ErrorStatus } from '../domain/refusal.js';
import type { Classify } from '../edge/classify.js';
import { errorBody, sendError } from '../rest/envelope.js';
import { JSON_ONLY_CSP, SECURITY_HEADERS } from './security-headers.js';

export const HTTP_LIMITS = {
  /** Request line plus headers; larger is 431. */
  maxHeaderBytes: 16 * 1024,
  /**
   * Header lines; more is 431. Node's parser refuses them itself since 22.23 and 24.21 (a fixed
   * limit); the listener checks it too, so 22.15 to 22.22 answer the same.
   */
  maxHeaderLines: 1_000,
  /** Path and query; longer is 414 (checked by the listener). */
  maxUrlLength: 8 * 1024,
  keepAliveTimeoutMs: 65_000,
  headersTimeoutMs: 66_000,
  /** The whole request, body included (a slow-loris client is cut off). */
  requestTimeoutMs: 70_000,
} as const;

/** Too many bytes or too many lines: node's parser says the same for both, and so do we. */
const HEADERS_TOO_LARGE: [ErrorStatus, string] = [
  431,
  `request headers too large (at most ${HTTP_LIMITS.maxHeaderBytes / 1024} KB in ${HTTP_LIMITS.maxHeaderLines} lines)`,
];

const CLIENT_ERRORS: Record<string, [ErrorStatus, string]> = {
  HPE_HEADER_OVERFLOW: HEADERS_TOO_LARGE,
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request not received in time'],
};

/*
 * What every answer of a listener carries, whoever writes it (a step, the error renderer, or an
 * answer written on the socket before any step): a request id (the client's own when it is a plain
 * token, else a new one), the security headers, and a CSP that forbids everything for JSON.
 */

/** The client's `X-Request-Id` when it is a plain token of at most 64 characters; else a new UUID. */
function requestIdOf(req: Pick<IncomingMessage, 'headers'> | undefined): string {
  const header = req?.headers['x-request-id'];
  return typeof header === 'string' && /^[\w.-]{1,64}$/.test(header) ? header : randomUUID();
}

/** Sets the headers every answer starts with; `html` pages set their own CSP (they load scripts). */
export function stamp(req: Pick<IncomingMessage, 'headers'> | undefined, html: boolean, set: (name: string, value: string) => void): void {
  set('X-Request-Id', requestIdOf(req));
  for (const [name, value] of SECURITY_HEADERS) set(name, value);
  if (!html) set('Content-Security-Policy', JSON_ONLY_CSP);
}

/** The same headers as a list, for answers written as raw bytes (on the socket, a WebSocket's 101): JSON or none, never a page. */
export function stampHeaders(req: Pick<IncomingMessage, 'headers'> | undefined): (readonly [string, string])[] {
  const headers: (readonly [string, string])[] = [];
  stamp(req, false, (name, value) => headers.push([name, value]));
  return headers;
}

/*
 * `whenFinished(res, fn)`: runs `fn` once node has handed the whole response to the socket, as
 * `res.on('finish', fn)` would, but without adding a listener of our own to every response. Node
 * publishes each finished response of its servers on the `http.server.response.finish`
 * diagnostics channel; one subscriber for the process calls the function the response carries.
 *
 * Why not the listener: a second 'finish' listener on each response (node's server adds its own)
 * put the service into a state where a quarter of what it allocated outlived two scavenges and was
 * promoted (about 3.5 MB a scavenge at 16 000 requests a second, 5 to 7 ms pauses, a full
 * collection every half second), on every route, /health included; without it, 15 KB a scavenge
 * and 0.4 to 0.9 ms pauses (docs/performance-log.md, "the tails were two listener habits"). A no-op listener did
 * the same, so it is the listener, not what ours does; the same listener on a bare node:http
 * server did not, so the mechanism is an interaction we have not isolated.
 */

const ON_FINISH = Symbol('run when the response is finished');

type Watched = ServerResponse & { [ON_FINISH]?: (this: ServerResponse) => void };

subscribe('http.server.response.finish', (message) => {
  const res = (message as { response: Watched }).response;
  res[ON_FINISH]?.call(res);
});

/** One function per response (a second call replaces the first); it runs with the response as `this`. */
export function whenFinished(res: ServerResponse, fn: (this: ServerResponse) => void): void {
  (res as Watched)[ON_FINISH] = fn;
}

/*
 * The pipeline: a step answers (returns true, or the promise of its answer) or passes the request
 * on; whatever a step throws or rejects with is rendered by `fail`, in the variant's envelope,
 * classified once.
 */

/** A route's handler on plain node:http: what it rejects with goes to the pipeline's error renderer. */
export type GatewayRoute = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** True when the step answered (or will: a promise it started). */
export type Step = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<void>;

export interface Pipeline {
  handle: RequestListener;
  /** The one error renderer: what `error` is, in the variant's envelope (or the end of a response already started). */
  fail(res: ServerResponse, error: unknown): void;
}

export function createPipeline(options: { variant: Variant; classify: Classify; steps: readonly Step[] }): Pipeline {
  const { variant, classify, steps } = options;
  const fail = (res: ServerResponse, error: unknown): void => {
    const answer = classify('http', error);
    // Too late for a status: end what was started, so the client sees a cut answer, not a hang.
    if (res.headersSent) return void res.destroy();
    // An error is JSON, whatever page the path would have served.
    res.setHeader('Content-Security-Policy', JSON_ONLY_CSP);
    sendError(res, variant, answer);
  };
  return {
    fail,
    handle(req, res) {
      try {
        for (const step of steps) {
          const answered = step(req, res);
          if (answered === false) continue;
          if (answered !== true) answered.catch((error: unknown) => fail(res, error));
          return;
        }
      } catch (error) {
        fail(res, error);
      }
    },
  };
}

/**
 * A refusal written straight to the socket, before any handler (node made no response object for
 * it, or the connection is an upgrade): the status's reason phrase, what every answer carries
 * (the stamp above), the envelope, and the end of the connection.
 */
export function answerOnSocket(socket: Duplex, variant: Variant, error: ApiError, req?: IncomingMessage): void {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify(errorBody(variant, error));
  const headers: (readonly [string, string | number])[] = [
    ['Content-Type', 'application/json; charset=utf-8'],
    ['Content-Length', Buffer.byteLength(body)],
    ...stampHeaders(req),
    ...Object.entries(error.headers),
    ['Connection', 'close'],
  ];
  // A HEAD's answer has the GET's headers and no body, here as where node writes the response.
  const sent = req?.method === 'HEAD' ? '' : body;
  socket.end(`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n${sent}`);
}

/**
 * What is wrong with a request's head that node let through, refused before any handler (a request
 * or an upgrade), like node's own refusals: HTTP/1.1 without Host (RFC 9112, 3.2), and more header
 * lines than the limit (which node's parser enforces itself only since 22.23 and 24.21).
 */
export function malformedHead(req: Pick<IncomingMessage, 'headers' | 'rawHeaders' | 'httpVersionMajor' | 'httpVersionMinor'>): ApiError | undefined {
  if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
    return new ApiError(400, 'the Host header is required (HTTP/1.1)');
  }
  if (req.rawHeaders.length > 2 * HTTP_LIMITS.maxHeaderLines) return new ApiError(...HEADERS_TOO_LARGE);
  return undefined;
}

/**
 * What a listener serves: HTTP requests, and optionally connection upgrades (WebSocket) and a way
 * to close the upgraded connections when the listener drains.
 */
export type GatewayApp = RequestListener & {
  upgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  closeUpgraded?: () => Promise<void>;
};

/** A listener that can be drained: see `drain`. */
export type DrainableServer = Server & {
  /**
   * Stops accepting and lets requests in flight finish: their answers say `Connection: close`, so
   * each connection ends after its answer instead of idling until the 65 s keep-alive timeout; idle
   * connections go at once, and whatever is still open after `graceMs` is cut.
   */
  drain(graceMs?: number): Promise<void>;
};

export interface ConnectionLimits {
  /**
   * Open connections on this listener; more are answered 503 and closed at once, and past a
   * sixteenth more node drops them unanswered (a flood must not cost an answer each).
   */
  maxConnections?: number;
  /** Open connections from one client address; more are answered 429 and closed at once. 0: no cap. */
  maxConnectionsPerAddress?: number;
}

/** The defaults when the open-file limit is unknown; see connectionLimitsFor. */
export const DEFAULT_CONNECTION_LIMITS: Required<ConnectionLimits> = { maxConnections: 10_000, maxConnectionsPerAddress: 256 };

/**
 * Caps that keep file descriptors for everyone: each listener may use 40 % of the open-file limit
 * (two listeners leave a fifth for the store, Redis, upstreams and logs), and one address at most
 * `perAddress` of them.
 */
export function connectionLimitsFor(openFiles: number | undefined, perAddress: number): Required<ConnectionLimits> {
  const maxConnections = openFiles && Number.isFinite(openFiles) ? Math.max(64, Math.floor(openFiles * 0.4)) : DEFAULT_CONNECTION_LIMITS.maxConnections;
  return { maxConnections, maxConnectionsPerAddress: perAddress };
}

/** Marks a connection turned away: node still parses what the client sent, but no handler runs for it. */
const REFUSED = Symbol('refused connection');

/** The latest response started on a connection (a drain tells it to close the connection). */
const LATEST = Symbol('latest response');
type Connection = Socket & { [LATEST]?: ServerResponse };

/**
 * Tracks the listener's open connections (returned: what a drain walks), counts them per client
 * address, and turns away the ones over either cap in the envelope (503 for the listener's, 429
 * for an address's), then closes them.
 */
function trackConnections(server: Server, variant: Variant, max: number, perAddress: number): ReadonlySet<Connection> {
  const open = new Set<Connection>();
  const perAddressOpen = new Map<string, number>();
  server.on('connection', (socket: Connection) => {
    const address = socket.remoteAddress ?? '?';
    const count = (perAddressOpen.get(address) ?? 0) + 1;
    perAddressOpen.set(address, count);
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      const left = (perAddressOpen.get(address) ?? 1) - 1;
      if (left === 0) perAddressOpen.delete(address);
      else perAddressOpen.set(address, left);
    });
    let refusal: ApiError | undefined;
    if (open.size > max) refusal = new ApiError(503, `too many open connections on this listener (at most ${max}); retry shortly`, { 'Retry-After': '1' });
    else if (perAddress > 0 && count > perAddress) {
      refusal = new ApiError(429, `too many open connections from this address (at most ${perAddress}); reuse or close some`, { 'Retry-After': '1' });
    }
    if (!refusal) return;
    (socket as Socket & { [REFUSED]?: boolean })[REFUSED] = true;
    answerOnSocket(socket, variant, refusal);
  });
  return open;
}

export function createHttpServer(handler: GatewayApp, variant: Variant, limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS): DrainableServer {
  let draining = false;
  const server = createServer(
    {
      maxHeaderSize: HTTP_LIMITS.maxHeaderBytes,
      keepAliveTimeout: HTTP_LIMITS.keepAliveTimeoutMs,
      headersTimeout: HTTP_LIMITS.headersTimeoutMs,
      requestTimeout: HTTP_LIMITS.requestTimeoutMs,
      // Node would answer a missing Host with a bare 400; the check below answers it in the envelope.
      requireHostHeader: false,
    },
    (req, res) => {
      if ((req.socket as Socket & { [REFUSED]?: boolean })[REFUSED]) return; // answered 429 at connection time
      const malformed = malformedHead(req);
      if (malformed) return void (res.socket && answerOnSocket(res.socket, variant, malformed, req));
      if (draining) res.shouldKeepAlive = false;
      // What a drain tells to say `Connection: close`, kept on the connection: a set that every
      // request joined and left kept answered responses alive through scavenges, as the 'finish'
      // listener did (`whenFinished` above): with 100 000 keys in rotation, 1.8 MB survived each
      // scavenge against 0.45 MB without it.
      (req.socket as Connection)[LATEST] = res;
      handler(req, res);
    },
  ) as DrainableServer;
  const maxConnections = limits.maxConnections ?? DEFAULT_CONNECTION_LIMITS.maxConnections;
  server.maxConnections = maxConnections + Math.max(16, Math.ceil(maxConnections / 16));
  const open = trackConnections(server, variant, maxConnections, limits.maxConnectionsPerAddress ?? DEFAULT_CONNECTION_LIMITS.maxConnectionsPerAddress);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // A reset or a half-sent request: nobody is listening for an answer.
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return void socket.destroy();
    const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'malformed HTTP request'];
    answerOnSocket(socket, variant, new ApiError(status, message));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if ((socket as Socket & { [REFUSED]?: boolean })[REFUSED]) return void socket.destroy();
    const malformed = malformedHead(req);
    if (malformed) return answerOnSocket(socket, variant, malformed, req);
    if (draining || !handler.upgrade) {
      const refusal = draining ? new ApiError(503, 'shutting down', { 'Retry-After': '1' }) : new ApiError(404, 'no WebSocket endpoint here');
      return answerOnSocket(socket, variant, refusal, req);
    }
    handler.upgrade(req, socket, head);
  });
  server.drain = (graceMs = 8_000) =>
    new Promise<void>((resolve) => {
      draining = true;
      // Upgraded connections (subscriptions) are not requests: they are told to go first.
      void handler.closeUpgraded?.();
      // The latest response of a connection is its last: once it says close, the connection ends after it.
      for (const connection of open) {
        const res = connection[LATEST];
        if (res && !res.headersSent) res.shouldKeepAlive = false;
      }
      const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
      server.close(() => {
        clearTimeout(deadline);
        resolve();
      });
      server.closeIdleConnections();
    });
  return server;
}
