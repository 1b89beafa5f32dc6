/** What every resolver receives: the caller, the services, and this request's DataLoaders. */
import type { Principal } from '../auth/authenticator.js';
import type { Loaders } from './loaders.js';
import type { OperationAnalysis } from './plan-requirements.js';
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
  /**
   * On Apollo's path, where the operation is known only once Apollo has parsed and validated it:
   * admits it at the edge (key, plan, quota), sets `principal` and the headers on the context it is
   * given (Apollo runs each operation on a shallow copy of the context), or throws the refusal as a
   * GraphQL error. The compiled path and the facades are admitted before execution.
   */
  admitOperation?: (analysis: OperationAnalysis, context: GraphQLContext) => Promise<void>;
  /** On a subscription's connection: how a stream reports a client that stopped reading. */
  stream?: { onSlowConsumer(): void };
}
