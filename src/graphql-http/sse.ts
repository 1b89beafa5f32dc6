/**
 * GraphQL subscriptions over Server-Sent Events (graphql-sse, "distinct connections mode") at
 * /graphql/stream, for clients behind proxies that do not pass WebSockets. Admitted by the same
 * gate as WebSocket subscriptions; the key in `Authorization` (or `?apikey=` on B). A refusal of
 * the key, plan or quota is its HTTP status with the GraphQL errors; a client that stops reading
 * has its stream ended.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExecutionResult } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/http';
import { presentedKey } from '../auth/api-key.js';
import type { Edge } from '../edge/edge.js';
import { ApiError } from '../domain/refusal.js';
import type { SubscriptionGate } from './subscription-gate.js';
import { toGraphQLErrors } from '../edge/graphql-codes.js';

/** A subscription document and its variables: more is refused before it is read. */
const MAX_BODY_BYTES = 100 * 1024;

export function createSseHandler(options: { edge: Edge; gate: SubscriptionGate }) {
  // The open streams: a drain ends them, or each would hold the listener until its grace ran out.
  const open = new Set<ServerResponse>();
  const handler = createHandler<undefined>({
    // No reservation tokens: every stream is its own request (HTTP/2 friendly, no server state).
    authenticate: () => null,
    onSubscribe: async (req, params) => {
      const request = req.raw;
      const query = new URL(request.url ?? '/', 'http://localhost').searchParams.get('apikey');
      const admission = await options.gate.admit({
        transport: 'sse',
        key: presentedKey(request.headers.authorization, query, options.edge.variant),
        query: params.query,
        operationName: params.operationName,
        variables: params.variables,
        onSlowConsumer: () => req.context.res.destroy(),
      });
      if (!admission.admitted) {
        const { refusal } = admission;
        const body = JSON.stringify({ errors: toGraphQLErrors(refusal).map((e) => e.toJSON()) });
        return [body, { status: refusal.status, statusText: 'Refused', headers: { ...refusal.headers, 'content-type': 'application/json; charset=utf-8' } }];
      }
      // The response ends when the stream completes or the client goes: either way the place is given back.
      const res = req.context.res;
      open.add(res);
      res.once('close', () => {
        open.delete(res);
        admission.release();
      });
      return admission.args as never;
    },
    onNext: (_ctx, _req, result) => (result.errors ? options.gate.format(result as ExecutionResult) : result),
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const length = Number(req.headers['content-length'] ?? 0);
    if (req.method === 'POST' && (req.headers['content-length'] === undefined || !(length <= MAX_BODY_BYTES))) {
      throw req.headers['content-length'] === undefined
        ? new ApiError(400, 'a POST to /graphql/stream needs a Content-Length')
        : new ApiError(413, `request body too large (at most ${MAX_BODY_BYTES / 1024} KB)`);
    }
    await handler(req, res);
  };
  return Object.assign(handle, {
    /**
     * Ends every open stream, with a comment line saying why (an SSE comment: clients skip it), and
     * its connection: the stream's end is the client's cue to reconnect, to another instance.
     */
    close(): void {
      for (const res of open) {
        const socket = res.socket;
        res.end(': server shutting down\n\n');
        socket?.end();
      }
      open.clear();
    },
  });
}
