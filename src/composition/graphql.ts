/** The unified schema and /graphql over it: Apollo Server, the compiled fast path, one error formatter, per-listener handlers. */
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { DegradedAnswers } from '../edge/degraded.js';
import type { Edge } from '../edge/edge.js';
import { createSchema } from '../graphql/schema.js';
import type { GraphQLServices } from '../graphql/services.js';
import { createErrorFormatter, createGraphQLServer } from '../graphql-http/apollo-server.js';
import { createOperationCompiler } from '../graphql-http/compiled-operations.js';
import { graphqlGuards } from '../graphql-http/guards.js';
import { createGraphQLHttpHandler } from '../graphql-http/http-handler.js';
import type { createMetrics } from '../metrics/metrics.js';
import type { Authenticator } from '../auth/authenticator.js';
import { createSseHandler } from '../graphql-http/sse.js';
import { createSubscriptionGate, SubscriptionHolds } from '../graphql-http/subscription-gate.js';
import { createSubscriptionServer, DEFAULT_SUBSCRIPTION_LIMITS, type SubscriptionServer } from '../graphql-http/subscriptions.js';
import { subscriptionCap } from '../quota/plans.js';

/** Largest /graphql body; a larger one is refused with 413 before it is read whole. */
const MAX_GRAPHQL_BODY_BYTES = 100 * 1024;

interface GraphQLDeps {
  config: Config;
  authenticator: Authenticator;
  services: GraphQLServices;
  metrics: ReturnType<typeof createMetrics>;
  degraded: DegradedAnswers;
  logger: Logger;
}

export async function buildGraphQL({ config, authenticator, services, metrics, degraded, logger }: GraphQLDeps) {
  const schema = createSchema();
  const guards = graphqlGuards();
  const formatError = createErrorFormatter({ degraded, logger, suggestions: config.graphql.suggestions });
  const apollo = await createGraphQLServer({ schema, guards, formatError, production: config.production, ...config.graphql, logger, degraded });
  const subscriptionServers: SubscriptionServer[] = [];
  // One count of subscriptions per account for both listeners and both transports.
  const holds = new SubscriptionHolds((principal) => subscriptionCap(principal.account, config.planLimits));
  metrics.watchOpenSubscriptions(() => holds.total());
  const compiler = createOperationCompiler(schema, { validationRules: guards.validationRules, maxTokens: guards.parseOptions.maxTokens });
  return {
    schema,
    /** Introspection is on (outside production, unless configured): explorers can read the schema. */
    introspection: config.graphql.introspection,
    /** /graphql on the listener of `edge`'s variant. */
    handlerFor: (edge: Edge) =>
      createGraphQLHttpHandler({
        server: apollo,
        schema,
        compiler,
        edge,
        services,
        formatError,
        requests: metrics.graphqlRequests,
        degraded,
        maxBodyBytes: MAX_GRAPHQL_BODY_BYTES,
      }),
    /** Subscriptions on the listener of `edge`'s variant: over WebSocket, and over Server-Sent Events. */
    subscriptionsFor: (edge: Edge) => {
      const gate = createSubscriptionGate({
        schema,
        formatError,
        edge,
        services,
        holds,
        degraded,
        validationRules: guards.validationRules,
        maxTokens: guards.parseOptions.maxTokens,
        logger,
        onSubscribed: () => metrics.subscriptions.inc({ variant: edge.variant }),
      });
      const server = createSubscriptionServer({ schema, edge, gate, authenticator, limits: DEFAULT_SUBSCRIPTION_LIMITS, logger });
      subscriptionServers.push(server);
      return { ...server, sse: createSseHandler({ edge, gate }) };
    },
    async stop(): Promise<void> {
      await Promise.all(subscriptionServers.map((s) => s.close()));
      await apollo.stop();
    },
  };
}
