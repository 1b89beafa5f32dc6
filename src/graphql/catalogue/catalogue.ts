/**
 * The operation catalogue: the one place an operation is parsed, validated, chosen, analysed for
 * its plans and compiled, for every transport (the REST facades, /graphql's compiled path and
 * Apollo, WebSocket and SSE subscriptions). It resolves what a request names (a text, an APQ hash,
 * a `documentId`), applies the trusted-documents policy, keeps what it prepared in one bounded LRU,
 * and builds the request context. Transports find their operation here and only render.
 */
import { type DocumentNode, type GraphQLSchema, getVariableValues, print, type ValidationRule } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Principal } from '../../auth/authenticator.js';
import type { GraphQLContext } from '../context.js';
import { createLoaders, type Loaders } from '../loaders.js';
import type { GraphQLServices } from '../services.js';
import { ApiError } from '../../domain/refusal.js';
import { createKeptOperations, type DocumentStore } from './kept-operations.js';
import { operationRefusal, operationId, type PreparedOperation, prepareRules } from './prepare.js';
import type { TrustedDocuments } from './trusted-documents.js';

/** What a request names: a text, a persisted id (APQ's `sha256Hash`, or `documentId`), or both (APQ's registration). */
export interface OperationRequest {
  query?: string;
  operationName?: string;
  id?: string;
}

export interface CatalogueOptions {
  schema: GraphQLSchema;
  services: GraphQLServices;
  /** Extra validation rules (the guards) and graphql-js's token cap. */
  validationRules?: readonly ValidationRule[];
  maxTokens?: number;
  trusted?: TrustedDocuments;
  /** Texts kept prepared (default 1 000), and at most this many characters of them in all (default 4 M). */
  maxEntries?: number;
  maxCharacters?: number;
}

export interface OperationCatalogue {
  /** A REST route's operation, prepared and compiled at start (always trusted); throws when it is broken. */
  register(label: string, document: DocumentNode): PreparedOperation;
  /** The operation a request names, or why it cannot run. `caller` decides an exemption from trusted documents. */
  find(request: OperationRequest, caller: Principal | null): PreparedOperation | ApiError;
  /**
   * graphql-jit's function for an operation that runs compiled, made on first use and kept with it;
   * undefined for one Apollo runs. Called only for an admitted request: compiling costs
   * milliseconds, and a caller without a key must not make the server pay them.
   */
  compiled(prepared: PreparedOperation): CompiledQuery | undefined;
  /** Variables checked as graphql-js checks them. */
  coerce(prepared: PreparedOperation, variables: Record<string, unknown>): { values: Record<string, unknown> } | ApiError;
  /** The one way a request context is built: the caller, the services, fresh DataLoaders. */
  context(principal: Principal | null, transport: GraphQLContext['transport'], extra?: Pick<GraphQLContext, 'stream' | 'admitted'>): GraphQLContext;
  /** Apollo's document store: the documents the catalogue prepared, so Apollo neither parses nor validates. */
  documentStore: DocumentStore;
}

const NOT_FOUND = 'PersistedQueryNotFound';

/**
 * A request's context. A class, not an object literal with a getter: the literal cost 340 ns a
 * request (a closure and an accessor property each time), the class 20. DataLoaders are made only
 * when a resolver asks: the dashboards' hottest queries read the read models directly.
 */
class RequestContext implements GraphQLContext {
  readonly responseHeaders: Record<string, string> = {};
  readonly admitted: boolean;
  readonly stream: GraphQLContext['stream'];
  /** Public, not #private: Apollo copies a context's own fields onto a clone for each operation of a batch. */
  lazyLoaders: Loaders | undefined = undefined;

  readonly principal: Principal | null;
  readonly services: GraphQLServices;
  readonly transport: GraphQLContext['transport'];

  constructor(
    principal: Principal | null,
    services: GraphQLServices,
    transport: GraphQLContext['transport'],
    extra?: Pick<GraphQLContext, 'stream' | 'admitted'>,
  ) {
    this.principal = principal;
    this.services = services;
    this.transport = transport;
    this.admitted = extra?.admitted ?? false;
    this.stream = extra?.stream;
  }

  get loaders(): Loaders {
    this.lazyLoaders ??= createLoaders(this.services);
    return this.lazyLoaders;
  }
}

export function createOperationCatalogue(options: CatalogueOptions): OperationCatalogue {
  const { schema, services, trusted } = options;
  const rules = prepareRules(schema, options.validationRules ?? [], options.maxTokens ?? 2_000);
  const kept = createKeptOperations(rules, options.maxEntries ?? 1_000, options.maxCharacters ?? 4_000_000);
  const compiled = compilerFor(schema);
  /** The REST routes' operations: always trusted, never evicted. */
  const routes = new Map<string, PreparedOperation>();

  /** The text a persisted id names: a route's, a trusted document's, or one registered by APQ. */
  const textOf = (id: string): string | undefined => routes.get(id)?.text ?? trusted?.body(id) ?? kept.registeredText(id);

  return {
    register(label, document) {
      const text = print(document);
      const found = kept.prepare(text, undefined);
      if (found instanceof ApiError) throw new Error(`the operation of ${label} is invalid: ${found.message}`);
      if (!compiled(found)) throw new Error(`the operation of ${label} does not compile to a query that reads data`);
      routes.set(found.id, found);
      return found;
    },

    find(request, caller) {
      const id = request.id?.toLowerCase();
      let text = request.query;
      if (id !== undefined) {
        if (text === undefined) text = textOf(id);
        else if (operationId(text) !== id) return operationRefusal('BAD_USER_INPUT', 'provided sha does not match query');
        if (text === undefined) return operationRefusal('PERSISTED_QUERY_NOT_FOUND', NOT_FOUND);
      }
      if (text === undefined) {
        return operationRefusal('BAD_USER_INPUT', 'GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.');
      }
      const refusal = untrusted(trusted, routes, () => id ?? operationId(text), caller);
      if (refusal) return refusal;
      const found = kept.prepare(text, request.operationName);
      if (id !== undefined && request.query !== undefined && !(found instanceof ApiError)) kept.register(id, text);
      return found;
    },

    compiled,

    coerce(operation, variables) {
      // graphql-jit coerces them again as it runs; this pass gives graphql-js's exact 400 messages first.
      const definitions = operation.operation.variableDefinitions;
      if (!definitions?.length) return { values: variables };
      const coerced = getVariableValues(schema, definitions, variables);
      return coerced.errors ? operationRefusal('BAD_USER_INPUT', coerced.errors) : { values: variables };
    },

    context: (principal, transport, extra) => new RequestContext(principal, services, transport, extra),

    documentStore: kept.documentStore,
  };
}

/** graphql-jit's function for an operation that runs compiled, made on first use and kept as long as the operation is. */
function compilerFor(schema: GraphQLSchema): (prepared: PreparedOperation) => CompiledQuery | undefined {
  const compiledOf = new WeakMap<PreparedOperation, CompiledQuery | undefined>();
  return (prepared) => {
    if (!prepared.runsCompiled) return undefined;
    if (!compiledOf.has(prepared)) {
      const made = compileQuery(schema, prepared.document, prepared.operation.name?.value);
      compiledOf.set(prepared, isCompiledQuery(made) ? made : undefined);
    }
    return compiledOf.get(prepared);
  };
}

/** Refused in `enforce` for a caller not exempt; counted (and logged) in `log`; REST routes' operations always pass. */
function untrusted(
  trusted: TrustedDocuments | undefined,
  routes: ReadonlyMap<string, PreparedOperation>,
  idOf: () => string,
  caller: Principal | null,
): ApiError | undefined {
  if (!trusted || trusted.mode === 'off') return undefined; // the text is not even hashed
  const id = idOf();
  if (routes.has(id) || trusted.has(id)) return undefined;
  if (trusted.mode === 'log' || caller?.anyOperation) {
    trusted.onUntrusted(id);
    return undefined;
  }
  return operationRefusal('PERSISTED_QUERY_NOT_FOUND', NOT_FOUND);
}
