/**
 * Apollo Server 5 behind /graphql (http-handler.ts), for what graphql-jit does not run: mutations,
 * introspection, Sandbox's page, and its own refusals of what is not a GraphQL request. Its
 * documents come from the catalogue (its document store), already validated and admitted by the
 * edge: Apollo neither parses nor validates them, and a guard refuses any operation not admitted.
 */
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageProductionDefault } from '@apollo/server/plugin/landingPage/default';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { Classify } from '../edge/classify.js';
import { answerStatusOf, graphqlCodeFor } from '../edge/graphql-codes.js';
import type { OperationCatalogue } from '../graphql/catalogue/catalogue.js';
import type { GraphQLContext } from '../graphql/context.js';
import { sandboxLandingPagePlugin } from './landing-page.js';

interface GraphQLServerOptions {
  /** The one error formatter, shared with the compiled path and subscriptions (createErrorFormatter). */
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
  catalogue: OperationCatalogue;
  schema: GraphQLSchema;
  production: boolean;
  /** Introspection (Sandbox's schema) and "Did you mean" suggestions in error messages. */
  introspection: boolean;
  suggestions: boolean;
}

/** Nothing runs that the edge did not admit: every operation reaches Apollo through http-handler.ts. */
const admittedOnly: ApolloServerPlugin<GraphQLContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ contextValue }) {
        if (!contextValue.admitted) throw new GraphQLError('internal error: an operation reached Apollo without admission');
      },
    };
  },
};

/** A field's refusal that answers for the whole request (over its own limit: 429) sets the answer's status, as on the compiled path. */
const statusOfFieldRefusals: ApolloServerPlugin<GraphQLContext> = {
  async requestDidStart() {
    return {
      async didEncounterErrors({ errors, response }) {
        const status = answerStatusOf(errors);
        if (status !== undefined) response.http.status = status;
      },
    };
  },
};

/** The one formatter of GraphQL errors for every path: the code of what the error is (classify), internals masked. */
export function createErrorFormatter(options: { classify: Classify; suggestions?: boolean }) {
  const format = (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const path = formatted.path ? { path: formatted.path } : {};
    const api = options.classify('graphql', error);
    // Never leak internals (paths, SQL, stacks) to a client; the log has the detail.
    if (api.status === 500) return { message: 'internal error', extensions: { code: 'INTERNAL_SERVER_ERROR' }, ...path };
    if (api.status === 503) return { message: api.message, extensions: { code: 'SERVICE_UNAVAILABLE' }, ...path };
    return { ...formatted, extensions: { code: api.graphql?.code ?? graphqlCodeFor(api.status) } };
  };
  if (options.suggestions !== false) return format;
  // Masked here rather than by a plugin, so every path's errors (variables, validation) are masked too.
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const out = format(formatted, error);
    return { ...out, message: out.message.replace(/ ?Did you mean .+\?/g, ' [Suggestion hidden]') };
  };
}

export async function createGraphQLServer(options: GraphQLServerOptions): Promise<ApolloServer<GraphQLContext>> {
  const server = new ApolloServer<GraphQLContext>({
    schema: options.schema,
    documentStore: options.catalogue.documentStore,
    // The catalogue resolves persisted queries (APQ and trusted documents) before Apollo sees a request.
    persistedQueries: false,
    introspection: options.introspection,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: !options.suggestions,
    csrfPrevention: true,
    allowBatchedHttpRequests: false,
    // The process owns shutdown (cli/serve.ts): Apollo's own SIGTERM handler would stop it halfway and
    // re-send the signal, cutting our drain short and exiting 1.
    stopOnTerminationSignals: false,
    plugins: [
      admittedOnly,
      statusOfFieldRefusals,
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
