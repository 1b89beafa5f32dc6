/** What every resolver receives: the caller, the services, and this request's DataLoaders. */
import type { Principal } from '../auth/authenticator.js';
import type { Loaders } from './loaders.js';
import type { GraphQLServices } from './services.js';

export interface GraphQLContext {
  /** Null only for unauthenticated introspection (see plan-requirements.ts). */
  principal: Principal | null;
  services: GraphQLServices;
  loaders: Loaders;
  /** Who is asking: /graphql, or a REST facade executing its operation in-process. */
  transport: 'graphql' | 'rest';
  /** Rate-limit headers decided at the edge, for the HTTP response. */
  responseHeaders: Record<string, string>;
  /** Set once the edge admitted the request: Apollo runs nothing without it (its guard plugin). */
  admitted?: boolean;
  /** On a subscription's connection: how a stream reports a client that stopped reading. */
  stream?: { onSlowConsumer(): void };
}
