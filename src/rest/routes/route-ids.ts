/** Every REST route's id (`A GET /api/v1/markets`), variant A's first, in table order. */
import { routeIdOf } from '../route-table.js';
import { marketDataRoutes } from './market-data.js';
import { predictionRoutes } from './prediction.js';

export const restRouteIds = (): string[] => [
  ...marketDataRoutes.map((route) => routeIdOf('A', route.path)),
  ...predictionRoutes.map((route) => routeIdOf('B', route.path)),
];
