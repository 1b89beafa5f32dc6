/**
 * The edge's checks, in D3's order, shared by the REST facades and /graphql:
 * authenticate (401) -> [route] -> plan (403) -> quota (429). Each throws an ApiError.
 */
import type { Authenticator, Principal } from '../auth/authenticator.js';
import type { Product } from '../domain/account.js';
import { assertPlan, type PlanRequirements } from '../graphql/plan-requirements.js';
import type { QuotaService } from '../quota/index.js';
import { QuotaUnavailableError } from '../quota/redis-quota.js';
import { ApiError } from './errors.js';

export interface Admission {
  authenticate(key: string | undefined): Promise<Principal>;
  authorize(principal: Principal, requirements: PlanRequirements, what: string): void;
  /** Spends one unit per product the request reads; returns the rate-limit headers to send. */
  meter(principal: Principal, requirements: PlanRequirements): Promise<Record<string, string>>;
}

const UNAUTHORIZED = 'a valid API key is required: send it as "Authorization: Bearer <key>"';

export function createAdmission(deps: {
  authenticator: Authenticator;
  quota: QuotaService;
  now: () => number;
  /** Told of every answer degraded by a dependency (logs, metrics). */
  onDegraded?: (error: Error) => void;
  /** Told of every request refused for a spent quota (metrics). */
  onRefused?: (product: Product) => void;
  /** Variant B also accepts ?apikey=; the message says so. */
  unauthorizedMessage?: string;
}): Admission {
  return {
    async authenticate(key) {
      const principal = key === undefined ? null : await deps.authenticator.authenticate(key);
      if (!principal) throw new ApiError(401, deps.unauthorizedMessage ?? UNAUTHORIZED);
      return principal;
    },

    authorize(principal, requirements, what) {
      assertPlan(principal.account, requirements, what);
    },

    async meter(principal, requirements) {
      let headers: Record<string, string> = {};
      let fewest = Infinity;
      for (const product of Object.keys(requirements) as Product[]) {
        const decision = await deps.quota.consume(principal.account, product, deps.now()).catch((error: unknown) => {
          // Unmetered traffic is not an option, nor is a client left waiting: answer 503 at once.
          if (error instanceof QuotaUnavailableError) {
            deps.onDegraded?.(error);
            throw new ApiError(503, 'rate limiting is temporarily unavailable; retry shortly', { 'Retry-After': '1' });
          }
          throw error;
        });
        if (!decision.allowed) {
          deps.onRefused?.(product);
          throw new ApiError(429, `rate limit exceeded: retry after ${decision.headers['Retry-After']} s`, decision.headers as Record<string, string>);
        }
        // With several products (a GraphQL operation over both variants), show the tightest.
        const remaining = Number(decision.headers['X-RateLimit-Remaining'] ?? Infinity);
        if (remaining < fewest) {
          fewest = remaining;
          headers = decision.headers as Record<string, string>;
        }
      }
      return headers;
    },
  };
}
