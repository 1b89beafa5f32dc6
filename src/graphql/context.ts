/** What every resolver receives: the caller, the services, and this request's DataLoaders. */
import type { PriceAlert } from '../domain/account.js';
import type { Principal } from '../auth/authenticator.js';
import type { BriefService } from '../analytics/brief-service.js';
import type { MorningBriefService } from '../brief/morning-briefs.js';
import type { MarketReadModel } from '../readmodel/market-read-model.js';
import type { PredictionReadModel } from '../readmodel/prediction-read-model.js';
import type { Store } from '../store/index.js';
import type { Loaders } from './loaders.js';
import type { OperationAnalysis } from './plan-requirements.js';

export interface GraphQLServices {
  store: Store;
  markets: MarketReadModel;
  briefs: BriefService;
  predictions: PredictionReadModel;
  morningBriefs: MorningBriefService;
  now(): number;
  /** Lets the alert evaluator know at once (it also reloads on its own schedule). */
  onAlertCreated?: (alert: PriceAlert) => void;
}

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
}
