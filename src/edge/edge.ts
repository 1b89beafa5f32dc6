/**
 * The edge: the one request sequence of every transport (the REST facades, /graphql, the
 * subscriptions, and any later one): key (401) -> route (404, 405, 400) -> plan (403) -> quota (429)
 * -> parameters (400). A transport declares once, at start, how its targets are found, what they
 * need and how their parameters are read (an `Entrance`); per request it hands the key and what it
 * read off the wire. The edge runs the steps in this order, once, runs the admitted work within the
 * request's deadline on the store, and hands the outcome back for the transport to render (an
 * envelope, a GraphQL error).
 */
import { type Authenticator, isKeyRefusal, type KeyRefusal, type Principal } from '../auth/authenticator.js';
import type { Variant } from '../domain/variant.js';
import type { Product } from '../domain/account.js';
import { assertPlan, type PlanRequirements } from '../domain/plans.js';
import type { Classify } from './classify.js';
import { ApiError } from '../domain/refusal.js';
import type { QuotaService } from '../quota/index.js';
import { QuotaUnavailableError } from '../quota/redis-quota.js';
import { type Attributes, activeTracing } from '../telemetry/tracing.js';
import { ADMISSION_WAIT_ALLOWED_MS, REQUEST_STATEMENT_MS, withinStoreDeadline } from '../deadline/request-deadline.js';

/** What a target needs: a plan per product it reads; `open` when it reads no data (introspection), so no key is needed. */
export interface Access {
  requirements: PlanRequirements;
  /** How a refusal names the target: `GET /api/v1/brief`, `this operation`. */
  what: string;
  /** How usage records name it: the REST route's id (`A GET /api/v1/brief`), the GraphQL operation's name (`anonymous` without one). */
  usageName: string;
  open?: boolean;
}

/**
 * What a transport declares once, at start: how a request's target is found (`Input` is what the
 * transport read off the wire: a path and query, a GraphQL request), what it needs, and how its
 * parameters are read.
 */
export interface Entrance<Input, Target, Params> {
  /** Which transport asks (`rest`, `graphql`, `subscription`): labels a degraded answer's log and count. */
  transport: string;
  /** Where the key may also come from, for the 401 message (`?apikey=` on variant B's REST facade). */
  keyInQuery?: boolean;
  /** True where a target may be open (GraphQL): a missing key is judged once the target is known. */
  mayBeOpen?: boolean;
  /** Step 2: what is asked for, or the transport's refusal (404, 405, a query that does not validate). `caller` is null for none. */
  find(input: Input, caller: Principal | null): Target | ApiError;
  /** A target found but closed (a route past its sunset): refused before any quota is spent, its answer still naming it. */
  closed?(target: Target, input: Input): ApiError | undefined;
  access(target: Target): Access;
  /** Step 5: the parameters, checked, or the transport's refusal (400). */
  parameters(target: Target, input: Input): Params | ApiError;
}

/**
 * A target prepared at start with what the edge checks, so that admitting it reads data instead of
 * calling back into the transport: what it needs, its sunset, its parameters' check.
 */
export interface PreparedTarget<Input, Params> {
  access: Access;
  /** The 410 of a target past its sunset, at `now`; undefined where no sunset is enforced. */
  gone: ((now: number) => ApiError | undefined) | undefined;
  /** The request's parameters, checked (made at start from the target's declared parameters). */
  parameters: (input: Input) => Params | ApiError;
}

/**
 * What a request of a table of prepared targets carries: the target its listener's table found,
 * or the table's refusal (404, 405), said only after the key step (D3: key before route).
 */
export interface FoundInput<Target> {
  found: Target | ApiError;
}

/** The entrance of a transport whose targets are prepared at start and found by the listener's table (the REST facades). */
export function preparedEntrance<Input extends FoundInput<Target>, Target extends PreparedTarget<Input, Params>, Params>(
  transport: string,
  options: { keyInQuery: boolean; now: () => number },
): Entrance<Input, Target, Params> {
  return {
    transport,
    keyInQuery: options.keyInQuery,
    find: (input) => input.found,
    // Past its sunset (enforced), a target is refused before any quota is spent.
    closed: (target) => target.gone?.(options.now()),
    access: (target) => target.access,
    parameters: (target, input) => target.parameters(input),
  };
}

/** The key a request presented. */
export interface Presented {
  /** As presented; `''` for a malformed Authorization header (refused), undefined for none. */
  key: string | undefined;
  /** Without a key: where the request put one that is not read, for the 401 message. */
  misplacedKey?: string | undefined;
}

/** An admitted request: who, what, with which parameters, and the rate-limit headers for its answer. */
export interface Admitted<Target, Params> {
  admitted: true;
  principal: Principal | null;
  target: Target;
  params: Params;
  headers: Record<string, string>;
  /**
   * When the request's PostgreSQL statements must be done, where its admission waited on the store
   * (a known key's re-read); undefined for the usual admission from memory. `serve` runs the work
   * within it.
   */
  storeDeadline: number | undefined;
}

/**
 * A refused one, already classified: a step's refusal (401 to 429, the transport's 400s), or a
 * dependency's failure (a store or Redis down: 503). `headers` go on the answer (rate limits once
 * the quota is spent, Retry-After). The transport only renders it.
 */
interface Refused<Target> {
  admitted: false;
  error: ApiError;
  headers: Record<string, string>;
  /** The target, when the route step found it before the refusal (its answer still names it). */
  target: Target | undefined;
}

export type Outcome<Target, Params> = Admitted<Target, Params> | Refused<Target>;

/** A transport's way in, made once from its `Entrance`. */
export interface Door<Input, Target, Params> {
  admit(presented: Presented, input: Input): Promise<Outcome<Target, Params>>;
  /** Admits, then hands the outcome to `answer`: an admitted one within the request's deadline on the store. */
  serve<T>(presented: Presented, input: Input, answer: (outcome: Outcome<Target, Params>, input: Input) => T | Promise<T>): Promise<T>;
}

export interface Edge {
  readonly variant: Variant;
  door<Input, Target, Params>(entrance: Entrance<Input, Target, Params>): Door<Input, Target, Params>;
}

interface EdgeOptions {
  variant: Variant;
  authenticator: Authenticator;
  quota: QuotaService;
  now: () => number;
  /** What an unexpected failure (the store, Redis) is answered as: the one classifier. */
  classify: Classify;
  /** Told of every answer degraded by a dependency (logs, metrics). */
  onDegraded?: (error: Error) => void;
  /** Told of every request refused for a spent quota (metrics). */
  onRefused?: (product: Product) => void;
  /**
   * Told of every request that passed the quota step with a key (usage records): what the quota
   * counters admitted, including one then refused for its parameters, which spent its unit too.
   */
  onMetered?: (principal: Principal, usageName: string) => void;
  /** Where a customer gets a plan (PORTAL_UPGRADE_URL), named by a 403 for the plan; unset: ask the operator. */
  upgradeUrl?: string;
}

/** RFC 6750's challenge: on every 401; `error="invalid_token"` where a key was sent (section 3.1). */
const REALM = 'Bearer realm="market-gateway"';
const DASHBOARD = 'the account dashboard (/account)';

const KEY_REFUSALS: Record<KeyRefusal['refused'], (refusal: KeyRefusal) => string> = {
  malformed: () => `malformed API key: a key is "mgw_" and 32 or more letters and digits, sent as "Authorization: Bearer <key>"`,
  unknown: () => `unknown API key: check that it was copied whole, or create one in ${DASHBOARD}`,
  revoked: () => `this API key was revoked: use another key of the account, or create one in ${DASHBOARD}`,
  expired: (r) => `this API key expired at ${new Date(r.expiresAt ?? 0).toISOString()}: create or rotate a key in ${DASHBOARD}`,
  disabled: () => `this API key's account is disabled: ask the operator of this gateway to enable it`,
};

/** A 401 that says which case it is (D3), with its `WWW-Authenticate` challenge. */
function unauthorized(refusal: KeyRefusal | undefined, request: { keyInQuery?: boolean | undefined; misplacedKey?: string | undefined }): ApiError {
  if (!refusal) {
    const how = `send it as "Authorization: Bearer <key>"${request.keyInQuery ? ' or ?apikey=<key>' : ''}`;
    const misplaced = request.misplacedKey ? ` (${request.misplacedKey})` : '';
    return new ApiError(401, `an API key is required: ${how}${misplaced}; create one in ${DASHBOARD}`, { 'WWW-Authenticate': REALM });
  }
  return new ApiError(401, KEY_REFUSALS[refusal.refused](refusal), {
    'WWW-Authenticate': `${REALM}, error="invalid_token", error_description="${refusal.refused} API key"`,
  });
}

/** What a 403 for the plan adds: how to get the plan. */
const upgradeHint = (upgradeUrl: string | undefined) =>
  upgradeUrl ? `get it at ${upgradeUrl}` : `ask the operator of this gateway to change the account's plan`;

/**
 * What the admission span says of an outcome: the key's id and its account's plan for the variant
 * (never the key), the quota's outcome, and the refusal's status.
 */
export function admissionAttributes(outcome: Outcome<unknown, unknown>, variant: Variant): Attributes {
  if (!outcome.admitted) {
    const status = outcome.error.status;
    return { 'mgw.admission': 'refused', 'http.response.status_code': status, 'mgw.quota': status === 429 ? 'exceeded' : undefined };
  }
  const principal = outcome.principal;
  const remaining = outcome.headers['X-RateLimit-Remaining'];
  return {
    'mgw.admission': 'admitted',
    'mgw.key.id': principal?.keyId,
    'mgw.account.id': principal?.account.id,
    'mgw.plan': principal ? (variant === 'A' ? principal.account.marketDataPlan : principal.account.predictionPlan) : undefined,
    'mgw.quota': principal ? 'allowed' : 'not metered',
    'mgw.quota.remaining': remaining === undefined ? undefined : Number(remaining),
  };
}

export function createEdge(options: EdgeOptions): Edge {
  const upgrade = upgradeHint(options.upgradeUrl);
  /** Step 4: one unit per product the request reads; the headers of the tightest window. */
  async function meter(principal: Principal, requirements: PlanRequirements): Promise<Record<string, string>> {
    let headers: Record<string, string> = {};
    let fewest = Infinity;
    for (const product of Object.keys(requirements) as Product[]) {
      const decision = await options.quota.consume(principal.account, product, options.now()).catch((error: unknown) => {
        // Unmetered traffic is not an option, nor is a client left waiting: answer 503 at once.
        if (error instanceof QuotaUnavailableError) {
          options.onDegraded?.(error);
          throw new ApiError(503, 'rate limiting is temporarily unavailable; retry shortly', { 'Retry-After': '1' });
        }
        throw error;
      });
      if (!decision.allowed) {
        options.onRefused?.(product);
        throw new ApiError(429, `rate limit exceeded: retry after ${decision.headers['Retry-After']} s`, decision.headers as Record<string, string>);
      }
      const remaining = Number(decision.headers['X-RateLimit-Remaining'] ?? Infinity);
      if (remaining < fewest) {
        fewest = remaining;
        headers = decision.headers as Record<string, string>;
      }
    }
    return headers;
  }

  async function admit<Input, Target, Params>(entrance: Entrance<Input, Target, Params>, presented: Presented, input: Input): Promise<Outcome<Target, Params>> {
    const began = performance.now();
    let headers: Record<string, string> = {};
    let target: Target | undefined;
    const refuse = (error: ApiError): Refused<Target> => ({ admitted: false, error, headers: { ...headers, ...error.headers }, target });
    const challenge = () => unauthorized(undefined, { keyInQuery: entrance.keyInQuery, misplacedKey: presented.misplacedKey });
    try {
      // 1. Key (401): a wrong key at once; a missing one at once unless the target may be open.
      const checked = presented.key === undefined ? null : await options.authenticator.check(presented.key);
      if (checked && isKeyRefusal(checked)) return refuse(unauthorized(checked, entrance));
      const principal = checked;
      if (!principal && !entrance.mayBeOpen) return refuse(challenge());
      // 2. Route
      const found = entrance.find(input, principal);
      if (found instanceof ApiError) return refuse(found);
      target = found;
      const closed = entrance.closed?.(found, input);
      if (closed) return refuse(closed);
      const access = entrance.access(found);
      if (!principal && !access.open) return refuse(challenge());
      if (principal) {
        // 3. Plan (403)
        assertPlan(principal.account, access.requirements, access.what, upgrade);
        // 4. Quota (429); from here on the unit is spent and the headers go on every answer.
        headers = await meter(principal, access.requirements);
        options.onMetered?.(principal, access.usageName);
      }
      // 5. Parameters (400)
      const params = entrance.parameters(found, input);
      if (params instanceof ApiError) return refuse(params);
      // An admission that waited on the store bounds the work after it (request-deadline.ts); one from memory sets none.
      const storeDeadline = performance.now() - began > ADMISSION_WAIT_ALLOWED_MS ? began + REQUEST_STATEMENT_MS : undefined;
      return { admitted: true, principal, target: found, params, headers, storeDeadline };
    } catch (caught) {
      // The plan's DomainError, the quota's ApiError, or a dependency's failure.
      return refuse(options.classify(entrance.transport, caught));
    }
  }

  return {
    variant: options.variant,
    door: (entrance) => ({
      admit: (presented, input) => admit(entrance, presented, input),
      async serve(presented, input, answer) {
        const traced = activeTracing;
        const outcome = traced
          ? await traced.inSpan('admission', { 'mgw.transport': entrance.transport, 'mgw.variant': options.variant }, async (span) => {
              const admitted = await admit(entrance, presented, input);
              span.set(admissionAttributes(admitted, options.variant));
              return admitted;
            })
          : await admit(entrance, presented, input);
        // Most admissions read memory and set no deadline: nothing to enter.
        if (!outcome.admitted || outcome.storeDeadline === undefined) return answer(outcome, input);
        return withinStoreDeadline(outcome.storeDeadline, () => answer(outcome, input));
      },
    }),
  };
}
