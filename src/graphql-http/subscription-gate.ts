/**
 * Admission of a subscription, for every transport that carries one (WebSocket, Server-Sent
 * Events): the listener's edge (key -> a document that parses, validates and is a subscription ->
 * plan -> one unit of quota), then the account's cap of subscriptions held at once. The admitted
 * subscription gets its execution arguments and a `release` to call once it ends.
 */
import type { ExecutionArgs, ExecutionResult, GraphQLFormattedError, GraphQLSchema } from 'graphql';
import type { Principal } from '../auth/authenticator.js';
import { admissionAttributes, type Edge, type Outcome } from '../edge/edge.js';
import { boundedOperationName, operationSpanName } from '../telemetry/operation-span.js';
import { type SpanHandle, activeTracing } from '../telemetry/tracing.js';
import { ApiError } from '../domain/refusal.js';
import { tooDeepJson, valueWithinDepth } from '../edge/json-depth.js';
import type { OperationCatalogue } from '../graphql/catalogue/catalogue.js';
import type { PreparedOperation } from '../graphql/catalogue/prepare.js';

export interface SubscriptionRequest {
  /** Which transport carries it (its start's span says so). */
  transport: 'graphql-ws' | 'sse';
  key: string | undefined;
  query: string;
  operationName?: string | null | undefined;
  variables?: Record<string, unknown> | null | undefined;
  /** How the transport ends a client that stops reading. */
  onSlowConsumer(): void;
}

export type Admission = { admitted: true; args: ExecutionArgs; principal: Principal; release(): void } | { admitted: false; refusal: ApiError };

/** Subscriptions held per account on this instance, across listeners and transports. */
export class SubscriptionHolds {
  private readonly held = new Map<string, number>();

  private readonly capOf: (principal: Principal) => number;

  constructor(capOf: (principal: Principal) => number) {
    this.capOf = capOf;
  }

  /** Subscriptions open now, all accounts together (/metrics). */
  total(): number {
    let sum = 0;
    for (const count of this.held.values()) sum += count;
    return sum;
  }

  /** Takes one for the account; undefined (and the cap) when it holds its cap already. */
  take(principal: Principal): { release(): void } | { cap: number } {
    const accountId = principal.account.id;
    const cap = this.capOf(principal);
    const count = this.held.get(accountId) ?? 0;
    if (count >= cap) return { cap };
    this.held.set(accountId, count + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.held.get(accountId) ?? 1) - 1;
        if (left <= 0) this.held.delete(accountId);
        else this.held.set(accountId, left);
      },
    };
  }
}

interface GateOptions {
  schema: GraphQLSchema;
  catalogue: OperationCatalogue;
  /** The one error formatter of /graphql: codes from domain and edge errors, internals masked. */
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
  edge: Edge;
  holds: SubscriptionHolds;
  onSubscribed?: () => void;
}

/** The edge's route step for a subscription: the catalogue's operation, if it is one. */
function subscriptionOf(found: PreparedOperation | ApiError): PreparedOperation | ApiError {
  if (found instanceof ApiError || found.kind === 'subscription') return found;
  return new ApiError(400, 'only subscriptions are served here; send queries and mutations with POST /graphql');
}

export function createSubscriptionGate(options: GateOptions) {
  const { schema, edge, catalogue } = options;
  const door = edge.door<SubscriptionRequest, PreparedOperation, { values: Record<string, unknown> }>({
    transport: 'subscription',
    keyInQuery: edge.variant === 'B',
    find: (request, caller) => subscriptionOf(catalogue.find({ query: request.query, operationName: request.operationName ?? undefined }, caller)),
    access: (operation) => ({ requirements: operation.analysis.requirements, what: 'this subscription', usageName: operation.name }),
    parameters: (operation, request) => (valueWithinDepth(request.variables) ? catalogue.coerce(operation, request.variables ?? {}) : tooDeepJson()),
  });

  return {
    /** A result as the client sees it: its errors through the formatter every /graphql answer uses. */
    format(result: ExecutionResult): ExecutionResult {
      if (!result.errors) return result;
      return { ...result, errors: result.errors.map((error) => options.formatError(error.toJSON(), error)) as never };
    },

    /** Admits a subscription; its start is a span when traced: the operation, and the admission's outcome. */
    admit(request: SubscriptionRequest): Promise<Admission> {
      const traced = activeTracing;
      if (!traced) return admit(request);
      const attributes = { 'mgw.transport': request.transport, 'mgw.variant': edge.variant, 'graphql.operation.type': 'subscription' };
      return traced.inSpan('subscription', attributes, (span) => admit(request, span));
    },
  };

  async function admit(request: SubscriptionRequest, span?: SpanHandle): Promise<Admission> {
    const outcome = await door.admit({ key: request.key }, request);
    if (span) traceStart(span, outcome);
    if (!outcome.admitted)
      return { admitted: false, refusal: new ApiError(outcome.error.status, outcome.error.message, outcome.headers, outcome.error.graphql) };
    const principal = outcome.principal!;
    const hold = options.holds.take(principal);
    if ('cap' in hold) {
      span?.set({ 'mgw.admission': 'refused', 'http.response.status_code': 429 });
      const message = `at most ${hold.cap} subscriptions at once for this account's plan; complete one first`;
      return { admitted: false, refusal: new ApiError(429, message, outcome.headers, { code: 'RATE_LIMITED' }) };
    }
    options.onSubscribed?.();
    const contextValue = catalogue.context(principal, 'graphql', { stream: { onSlowConsumer: request.onSlowConsumer } });
    Object.assign(contextValue.responseHeaders, outcome.headers);
    return {
      admitted: true,
      principal,
      release: hold.release,
      args: {
        schema,
        document: outcome.target.document,
        operationName: outcome.target.operation.name?.value ?? null,
        variableValues: outcome.params.values,
        contextValue,
      },
    };
  }

  /** The start's span, once the edge has spoken: named by the operation when it was found, and the admission's outcome. */
  function traceStart(span: SpanHandle, outcome: Outcome<PreparedOperation, unknown>): void {
    const operation = outcome.target;
    if (operation) {
      const name = boundedOperationName(operation.name);
      span.rename(operationSpanName('subscription', name));
      span.set({ 'graphql.operation.name': name, 'graphql.document.id': operation.id });
    }
    span.set(admissionAttributes(outcome, edge.variant));
  }
}

export type SubscriptionGate = ReturnType<typeof createSubscriptionGate>;
