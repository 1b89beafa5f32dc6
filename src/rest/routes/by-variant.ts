/** Each variant's route table, and the ids an operator names their routes by (LEGACY_DEPRECATIONS). */
import type { Variant } from '../../domain/variant.js';
import { type RouteDefinition, routeIdOf } from '../route-table.js';
import { marketDataRoutes } from './market-data.js';
import { predictionRoutes } from './prediction.js';

export const ROUTES_OF: Record<Variant, readonly RouteDefinition[]> = { A: marketDataRoutes, B: predictionRoutes };

export const ROUTE_IDS: readonly string[] = (['A', 'B'] as const).flatMap((variant) => ROUTES_OF[variant].map((route) => routeIdOf(variant, route.path)));
