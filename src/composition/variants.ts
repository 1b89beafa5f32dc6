/** The two listeners, built from one table: each variant's routes, its OpenAPI document, its edge. */
import type { GatewayApp, GatewayRoute } from '../http/http-server.js';
import type { Logger } from 'pino';
import type { Variant } from '../domain/variant.js';
import type { Config } from '../config/config.js';
import type { Classify } from '../edge/classify.js';
import type { Edge } from '../edge/edge.js';
import type { GraphQLServices } from '../graphql/services.js';
import { createVariantApp } from '../http/variant-app.js';
import type { createMetrics } from '../metrics/metrics.js';
import { createFacadeHandler } from '../rest/facade.js';
import { buildOpenApiDocument } from '../rest/openapi.js';
import { WEBHOOK_EVENTS, type WebhookEventDeclarations } from '../rest/webhook-events.js';
import type { RouteDefinition } from '../rest/route-table.js';
import { marketDataRoutes } from '../rest/routes/market-data.js';
import { predictionRoutes } from '../rest/routes/prediction.js';
import type { buildGraphQL } from './graphql.js';
import type { Readiness } from './health.js';

const VARIANTS: { variant: Variant; routes: readonly RouteDefinition[]; title: string; description: string; webhooks?: WebhookEventDeclarations }[] = [
  {
    variant: 'A',
    routes: marketDataRoutes,
    title: 'market-gateway: Market data API',
    description: 'Markets, real-time briefs and price alerts.',
    webhooks: WEBHOOK_EVENTS,
  },
  {
    variant: 'B',
    routes: predictionRoutes,
    title: 'market-gateway: Prediction markets API',
    description: 'The most active prediction markets, the morning brief and movement alerts. Pro plan.',
  },
];

/** The REST routes' paths under /api/v1, of both variants: each a route label of the HTTP metrics. */
export const API_PATHS: readonly string[] = VARIANTS.flatMap((v) => v.routes.map((r) => r.path));

interface VariantDeps {
  edges: Record<Variant, Edge>;
  graphql: Awaited<ReturnType<typeof buildGraphQL>>;
  services: GraphQLServices;
  ready: () => Promise<Readiness>;
  metrics: ReturnType<typeof createMetrics>;
  classify: Classify;
  logger: Logger;
  legacy: Config['legacy'];
  /** The account dashboard at /account, one handler per listener. */
  dashboard: (variant: Variant) => GatewayRoute & { pages: ReadonlyMap<string, GatewayRoute> };
}

export function buildVariantApps({ edges, graphql, services, ready, metrics, classify, logger, legacy, dashboard }: VariantDeps): Record<Variant, GatewayApp> {
  const apps = VARIANTS.map(({ variant, routes, title, description, webhooks }) => {
    const edge = edges[variant];
    const facade = createFacadeHandler({ routes, catalogue: graphql.catalogue, edge, services, classify, ...legacy });
    return createVariantApp({
      variant,
      facade,
      operationDocuments: facade.documents,
      dashboard: dashboard(variant),
      graphql: graphql.handlerFor(edge),
      subscriptions: graphql.subscriptionsFor(edge),
      explorer: graphql.introspection,
      openApiDocument: buildOpenApiDocument({ variant, title, version: '1.0.0', description, routes, webhooks, operations: facade.operations, ...legacy }),
      ready,
      logger,
      classify,
      metrics: metrics.registry,
      httpMetrics: metrics.http,
    });
  });
  return { A: apps[0]!, B: apps[1]! };
}
