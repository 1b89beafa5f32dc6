/**
 * Admission of a subscription, for every transport that carries one (WebSocket, Server-Sent
 * Events): the listener's edge (key -> a document that parses, validates and is a subscription ->
 * plan -> one unit of quota), then the account's cap of subscriptions held at once. The admitted
 * subscription gets its execution arguments and a `release` to call once it ends.
 */
import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  getOperationAST,
  parse,
  validate,
} from 'graphql';
import type { Logger } from 'pino';
import type { Principal } from '../auth/authenticator.js';
import type { DegradedAnswers } from '../edge/degraded.js';
import type { Edge } from '../edge/edge.js';
import { ApiError } from '../edge/errors.js';
import { toGraphQLError } from '../edge/graphql-codes.js';
import type { GraphQLContext } from '../graphql/context.js';
import { createLoaders } from '../graphql/loaders.js';
import { analyzeOperation, collectFieldRequirements } from '../graphql/plan-requirements.js';
import type { GraphQLServices } from '../graphql/services.js';

export interface SubscriptionRequest {
  key: string | undefined;
  query: string;
  operationName?: string | null | undefined;
  variables?: Record<string, unknown> | null | undefined;
  /** How the transport ends a client that stops reading. */
  onSlowConsumer(): void;
}

export type Admission =
  | { admitted: true; args: ExecutionArgs; principal: Principal; release(): void }
  | { admitted: false; errors: readonly GraphQLError[]; status: number };

/** Subscriptions held per account on this instance, across listeners and transports. */
export class SubscriptionHolds {
  private readonly held = new Map<string, number>();

  constructor(private readonly capOf: (principal: Principal) => number) {}

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
  /** The one error formatter of /graphql: codes from domain and edge errors, internals masked. */
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
  edge: Edge;
  services: GraphQLServices;
  holds: SubscriptionHolds;
  degraded: DegradedAnswers;
  validationRules: Parameters<typeof validate>[2];
  maxTokens: number;
  logger: Logger;
  onSubscribed?: () => void;
}

export function createSubscriptionGate(options: GateOptions) {
  const { schema, edge } = options;
  const fields = collectFieldRequirements(schema);

  const refused = (error: unknown): Admission => {
    if (error instanceof ApiError) return { admitted: false, errors: [toGraphQLError(error)], status: error.status };
    const degraded = options.degraded.answerFor('subscription', error);
    if (degraded) return { admitted: false, errors: [toGraphQLError(degraded)], status: 503 };
    options.logger.error({ err: error }, 'subscription refused by an unexpected error');
    return { admitted: false, errors: [toGraphQLError(new ApiError(500, 'internal error'))], status: 500 };
  };

  return {
    /** A result as the client sees it: its errors through the formatter every /graphql answer uses. */
    format(result: ExecutionResult): ExecutionResult {
      if (!result.errors) return result;
      return { ...result, errors: result.errors.map((error) => options.formatError(error.toJSON(), error)) as never };
    },

    async admit(request: SubscriptionRequest): Promise<Admission> {
      const outcome = await edge.admit({
        key: request.key,
        keyInQuery: edge.variant === 'B',
        route: (): DocumentNode => {
          let document: DocumentNode;
          try {
            document = parse(request.query, { maxTokens: options.maxTokens });
          } catch (error) {
            throw new ApiError(400, (error as Error).message);
          }
          const errors = validate(schema, document, options.validationRules);
          if (errors.length > 0) throw new ApiError(400, errors.map((e) => e.message).join('; '));
          const operation = getOperationAST(document, request.operationName);
          if (!operation) throw new ApiError(400, 'the document must hold one operation, or name it with operationName');
          if (operation.operation !== 'subscription') {
            throw new ApiError(400, 'only subscriptions are served here; send queries and mutations with POST /graphql');
          }
          return document;
        },
        access: (document) => ({
          requirements: analyzeOperation(schema, fields, document, getOperationAST(document, request.operationName)!).requirements,
          what: 'this subscription',
        }),
        parameters: (document) => document,
      });
      if (!outcome.admitted) return refused(outcome.refusal);
      const principal = outcome.principal!;
      const hold = options.holds.take(principal);
      if ('cap' in hold) {
        const error = new GraphQLError(`at most ${hold.cap} subscriptions at once for this account's plan; complete one first`, {
          extensions: { code: 'RATE_LIMITED', http: { status: 429 } },
        });
        return { admitted: false, errors: [error], status: 429 };
      }
      options.onSubscribed?.();
      const contextValue: GraphQLContext = {
        principal,
        services: options.services,
        loaders: createLoaders(options.services),
        transport: 'graphql',
        responseHeaders: outcome.headers,
        stream: { onSlowConsumer: request.onSlowConsumer },
      };
      return {
        admitted: true,
        principal,
        release: hold.release,
        args: { schema, document: outcome.params, operationName: request.operationName ?? null, variableValues: request.variables ?? null, contextValue },
      };
    },
  };
}

export type SubscriptionGate = ReturnType<typeof createSubscriptionGate>;
