/**
 * /graphql: Apollo Server 5, served on node:http by http-handler.ts. The edge admits the request
 * through a plugin once Apollo knows the operation (key, plan per field, quota), before any resolver.
 */
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import type { DegradedAnswers } from '../edge/degraded.js';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageProductionDefault } from '@apollo/server/plugin/landingPage/default';
import { sandboxLandingPagePlugin } from './landing-page.js';
import { type DocumentNode, GraphQLError, type GraphQLFormattedError, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { Logger } from 'pino';
import { DomainError } from '../domain/errors.js';
import { ApiError, apiErrorFromDomain } from '../edge/errors.js';
import type { GraphQLContext } from '../graphql/context.js';
import type { GraphQLGuards } from './guards.js';
import { graphqlCodeFor } from '../edge/graphql-codes.js';
import { analyzeOperation, collectFieldRequirements, type OperationAnalysis } from '../graphql/plan-requirements.js';

const CLIENT_QUERY_ERRORS = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_REQUEST', 'OPERATION_RESOLUTION_FAILURE']);

interface GraphQLServerOptions {
  /** The one error formatter, shared with the compiled path (createErrorFormatter). */
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
  guards: GraphQLGuards;
  degraded: DegradedAnswers;
  schema: GraphQLSchema;
  production: boolean;
  /** Introspection (Sandbox's schema) and "Did you mean" suggestions in error messages. */
  introspection: boolean;
  suggestions: boolean;
  logger: Logger;
}

function edgePlugin(options: GraphQLServerOptions): ApolloServerPlugin<GraphQLContext> {
  const fields = collectFieldRequirements(options.schema);
  // Apollo caches parsed documents, so the same DocumentNode comes back for the same query text.
  const analyses = new WeakMap<DocumentNode, Map<OperationDefinitionNode, OperationAnalysis>>();
  const analyze = (document: DocumentNode, operation: OperationDefinitionNode) => {
    let perDoc = analyses.get(document);
    if (!perDoc) {
      perDoc = new Map();
      analyses.set(document, perDoc);
    }
    let found = perDoc.get(operation);
    if (!found) {
      found = analyzeOperation(options.schema, fields, document, operation);
      perDoc.set(operation, found);
    }
    return found;
  };

  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operation, contextValue }) {
          if (operation) await contextValue.admitOperation?.(analyze(document, operation), contextValue);
        },
        async willSendResponse({ response, contextValue }) {
          for (const [name, value] of Object.entries(contextValue.responseHeaders ?? {})) {
            response.http.headers.set(name, value);
          }
        },
      };
    },
  };
}

/** Apollo's formatError, also used by the compiled fast path so both answer alike. */
export function createErrorFormatter(options: Pick<GraphQLServerOptions, 'degraded' | 'logger'> & { suggestions?: boolean }) {
  const format = formatGraphQLError(options);
  if (options.suggestions !== false) return format;
  // Masked here rather than by a plugin, so the compiled path's errors (variables) are masked too.
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const out = format(formatted, error);
    return { ...out, message: out.message.replace(/ ?Did you mean .+\?/g, ' [Suggestion hidden]') };
  };
}

function formatGraphQLError(options: Pick<GraphQLServerOptions, 'degraded' | 'logger'>) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = error instanceof GraphQLError ? error.originalError : undefined;
    if (original instanceof ApiError || original instanceof DomainError) {
      const status = original instanceof ApiError ? original.status : apiErrorFromDomain(original).status;
      return { ...formatted, message: original.message, extensions: { code: graphqlCodeFor(status) } };
    }
    const unavailable = options.degraded.answerFor('graphql', original);
    if (unavailable) {
      return { message: unavailable.message, extensions: { code: 'SERVICE_UNAVAILABLE' }, ...(formatted.path ? { path: formatted.path } : {}) };
    }
    if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR' && isRefusedRequest(error, original)) {
      // Apollo refused the request itself, without a code (a persisted query whose hash does not
      // match its text, an unsupported version): the client's mistake, said as Apollo says it.
      return { message: formatted.message, extensions: { code: 'BAD_USER_INPUT' } };
    }
    if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') {
      // Never leak internals (paths, SQL, stacks) to a client; the log has the detail.
      options.logger.error({ err: original ?? error }, 'graphql resolver failed');
      return { message: 'internal error', extensions: { code: 'INTERNAL_SERVER_ERROR' }, ...(formatted.path ? { path: formatted.path } : {}) };
    }
    const { stacktrace: _drop, ...extensions } = formatted.extensions ?? {};
    // D12 lists the codes clients see: a query that does not parse or validate is their input's fault.
    if (typeof extensions.code === 'string' && CLIENT_QUERY_ERRORS.has(extensions.code)) extensions.code = 'BAD_USER_INPUT';
    return { ...formatted, extensions };
  };
}

/**
 * An error Apollo's request pipeline raised with a 4xx status before any resolver ran: it carries
 * `extensions.http`, has no path and wraps nothing (a resolver's error always has a path).
 */
function isRefusedRequest(error: unknown, original: Error | undefined): boolean {
  if (!(error instanceof GraphQLError) || original !== undefined || error.path !== undefined) return false;
  const status = (error.extensions?.http as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

export async function createGraphQLServer(options: GraphQLServerOptions): Promise<ApolloServer<GraphQLContext>> {
  const server = new ApolloServer<GraphQLContext>({
    schema: options.schema,
    introspection: options.introspection,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: !options.suggestions,
    csrfPrevention: true,
    validationRules: options.guards.validationRules,
    parseOptions: options.guards.parseOptions,
    allowBatchedHttpRequests: false,
    // The process owns shutdown (cli/serve.ts): Apollo's own SIGTERM handler would stop it halfway and
    // re-send the signal, cutting our drain short and exiting 1.
    stopOnTerminationSignals: false,
    plugins: [
      edgePlugin(options),
      ...options.guards.plugins,
      // The built-in cache-control plugin hooks every field (and makes Apollo wrap every resolver) to
      // compute a Cache-Control nobody reads here: off, it costs nothing per field.
      ApolloServerPluginCacheControlDisabled(),
      options.production ? ApolloServerPluginLandingPageProductionDefault({ footer: false }) : sandboxLandingPagePlugin<GraphQLContext>(),
    ],
    formatError: options.formatError,
  });
  await server.start();
  return server;
}
