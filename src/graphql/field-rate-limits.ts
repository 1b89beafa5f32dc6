/**
 * `@rateLimit` on expensive fields (the briefs): graphql-rate-limit counts each resolution of the
 * field per account, so fifteen aliased briefs in one operation count fifteen, not one request.
 * Only /graphql is counted: the REST facades answer one brief per request and are metered by the
 * quota of D4. Counts are per instance (an in-memory store). The library is loaded with the first
 * limited field resolved over /graphql: it brings graphql-shield, yup and lodash (about 4 MB of heap)
 * that an instance nobody asks for a brief over /graphql does without.
 */
import { getDirective, MapperKind, mapSchema } from '@graphql-tools/utils';
import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import type { GraphQLRateLimitConfig, Identity, Store } from 'graphql-rate-limit';
import { ApiError } from '../domain/refusal.js';
import { loadOnce } from '../load-once.js';
import type { GraphQLContext } from './context.js';

/** The library's default store copies its whole state on every call; a Map does not. */
class MapStore implements Store {
  private readonly calls = new Map<string, readonly number[]>();

  setForIdentity(identity: Identity, timestamps: readonly number[]): void {
    this.calls.set(`${identity.contextIdentity}|${identity.fieldIdentity}`, timestamps);
  }

  getForIdentity(identity: Identity): readonly number[] {
    return this.calls.get(`${identity.contextIdentity}|${identity.fieldIdentity}`) ?? [];
  }
}

interface RateLimitArgs {
  max?: number;
  window?: string;
  message?: string;
}

export function applyFieldRateLimits(schema: GraphQLSchema): GraphQLSchema {
  const options: GraphQLRateLimitConfig = {
    identifyContext: (context: GraphQLContext) => context.principal?.account.id ?? 'anonymous',
    store: new MapStore(),
    // Aliases of one field in one operation resolve concurrently; the batch cache counts them
    // together (without it each would read the same old count and store one more).
    enableBatchRequestCache: true,
  };
  const limiter = loadOnce(async () => (await import('graphql-rate-limit')).getGraphQLRateLimiter(options));
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD](field) {
      const limit = getDirective(schema, field, 'rateLimit')?.[0] as RateLimitArgs | undefined;
      if (!limit) return field;
      const resolve = field.resolve ?? defaultFieldResolver;
      const config = {
        max: limit.max ?? 60,
        window: limit.window ?? '60s',
        message: limit.message ?? `this field is limited to ${limit.max ?? 60} per ${limit.window ?? '60s'} per account; retry later`,
        // Refused calls are not stored: the list per account stays at most `max` long, and a client
        // that keeps retrying is let back in once its window has passed.
        uncountRejected: true,
      };
      field.resolve = async (parent, args, context: GraphQLContext, info) => {
        if (context.transport === 'graphql') {
          const refused = await (await limiter())({ parent, args, context, info }, config);
          // The whole answer is a 429, with the field's error in it, as Apollo answers a field that asks for one.
          if (refused) throw new ApiError(429, refused, {}, { code: 'RATE_LIMITED', statusOfAnswer: true });
        }
        return resolve(parent, args, context, info);
      };
      return field;
    },
  });
}
