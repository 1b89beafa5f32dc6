/** The unified schema and /graphql over it: the operation catalogue, Apollo Server, one error formatter, per-listener handlers. */
import { NoSchemaIntrospectionCustomRule } from 'graphql';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Classify } from '../edge/classify.js';
import type { Edge } from '../edge/edge.js';
import { createOperationCatalogue } from '../graphql/catalogue/catalogue.js';
import { GRAPHQL_LIMITS, guardRules } from '../graphql/catalogue/guards.js';
import { createTrustedDocuments } from '../graphql/catalogue/trusted-documents.js';
import { createSchema } from '../graphql/schema.js';
import type { GraphQLServices } from '../graphql/services.js';
import { createErrorFormatter, createGraphQLServer } from '../graphql-http/apollo-server.js';
import { createGraphQLHttpHandler } from '../graphql-http/http-handler.js';
import type { createMetrics } from '../metrics/metrics.js';
import type { Authenticator } from '../auth/authenticator.js';
import { createSseHandler } from '../graphql-http/sse.js';
import { createSubscriptionGate, SubscriptionHolds } from '../graphql-http/subscription-gate.js';
import { createSubscriptionServer, DEFAULT_SUBSCRIPTION_LIMITS, type SubscriptionServer } from '../graphql-http/subscriptions.js';
import { subscriptionCap } from '../quota/plans.js';
import { createResponseCache } from '../graphql/answers/kept-answers.js';
import { stampHeaders } from '../http/http-server.js';

/** Largest /graphql body; a larger one is refused with 413 before it is read whole. */
const MAX_GRAPHQL_BODY_BYTES = 100 * 1024;
/** How often each instance asks the store whether a new manifest of trusted documents was loaded. */
const TRUSTED_DOCUMENTS_POLL_MS = 1_000;

interface GraphQLDeps {
  config: Config;
  authenticator: Authenticator;
  services: GraphQLServices;
  metrics: ReturnType<typeof createMetrics>;
  classify: Classify;
  logger: Logger;
}

export async function buildGraphQL({ config, authenticator, services, metrics, classify, logger }: GraphQLDeps) {
  const schema = createSchema();
  const trusted = createTrustedDocuments({
    mode: config.graphql.trustedDocuments,
    source: services.store.trustedDocuments,
    pollMs: TRUSTED_DOCUMENTS_POLL_MS,
    logger,
    untrusted: metrics.untrustedOperations,
  });
  // Before any listener serves: under `enforce`, nothing may run on an empty manifest by accident.
  await trusted.start();
  // Introspection off (production): refused when the catalogue validates, as Apollo's own rule would.
  const validationRules = [...guardRules(), ...(config.graphql.introspection ? [] : [NoSchemaIntrospectionCustomRule])];
  const catalogue = createOperationCatalogue({ schema, services, validationRules, maxTokens: GRAPHQL_LIMITS.maxTokens, trusted });
  const formatError = createErrorFormatter({ classify, suggestions: config.graphql.suggestions });
  const apollo = await createGraphQLServer({ schema, catalogue, formatError, production: config.production, ...config.graphql });
  const subscriptionServers: SubscriptionServer[] = [];
  // One cache of /graphql answers for both listeners: a key holds the data versions it was computed from.
  const answers = createResponseCache();
  // One count of subscriptions per account for both listeners and both transports.
  const holds = new SubscriptionHolds((principal) => subscriptionCap(principal.account, config.planLimits));
  metrics.watchOpenSubscriptions(() => holds.total());
  return {
    schema,
    catalogue,
    trusted,
    /** Introspection is on (outside production, unless configured): explorers can read the schema. */
    introspection: config.graphql.introspection,
    /** /graphql on the listener of `edge`'s variant. */
    handlerFor: (edge: Edge) =>
      createGraphQLHttpHandler({
        server: apollo,
        catalogue,
        edge,
        formatError,
        classify,
        requests: metrics.graphqlRequests,
        operations: (name, type, seconds) => metrics.semconv.graphqlOperation(name, type, seconds),
        maxBodyBytes: MAX_GRAPHQL_BODY_BYTES,
        answers,
      }),
    /** Subscriptions on the listener of `edge`'s variant: over WebSocket, and over Server-Sent Events. */
    subscriptionsFor: (edge: Edge) => {
      const gate = createSubscriptionGate({
        schema,
        catalogue,
        formatError,
        edge,
        holds,
        onSubscribed: () => metrics.subscriptions.inc({ variant: edge.variant }),
      });
      const server = createSubscriptionServer({
        schema,
        edge,
        gate,
        authenticator,
        limits: DEFAULT_SUBSCRIPTION_LIMITS,
        logger,
        stamp: stampHeaders,
      });
      const sse = createSseHandler({ edge, gate });
      subscriptionServers.push(server);
      return {
        upgrade: server.upgrade,
        sse,
        /** Tells every open subscription to go: WebSocket connections get 1001, SSE streams end. */
        close: async () => {
          sse.close();
          await server.close();
        },
      };
    },
    async stop(): Promise<void> {
      trusted.stop();
      await Promise.all(subscriptionServers.map((s) => s.close()));
      await apollo.stop();
    },
  };
}
