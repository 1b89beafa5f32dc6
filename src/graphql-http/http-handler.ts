/**
 * /graphql on plain node:http. Every request that names an operation (its text, an APQ hash, a
 * `documentId`; POST, or a GET a browser cannot forge) finds it in the catalogue and is admitted by
 * the edge (key, plan, quota, variables) before anything runs. A query that reads data runs here,
 * compiled; what graphql-jit does not run (mutations, introspection) is handed to Apollo with the
 * catalogue's document, so Apollo neither parses nor validates. Apollo alone answers what names no
 * operation: Sandbox on GET, CSRF prevention, a body that is not a GraphQL request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApolloServer } from '@apollo/server';
import type { Principal } from '../auth/authenticator.js';
import { misplacedKey, presentedKey } from '../auth/api-key.js';
import type { Admitted, Edge, Entrance } from '../edge/edge.js';
import { ApiError } from '../domain/refusal.js';
import type { Classify } from '../edge/classify.js';
import type { OperationCatalogue } from '../graphql/catalogue/catalogue.js';
import type { PreparedOperation } from '../graphql/catalogue/prepare.js';
import type { GraphQLContext } from '../graphql/context.js';
import type { createResponseCache } from '../graphql/answers/kept-answers.js';
import { inOperationSpan } from '../telemetry/operation-span.js';
import { activeTracing } from '../telemetry/tracing.js';
import { runApollo } from './apollo-bridge.js';
import { createCompiledRunner, type Ran } from './compiled-run.js';
import { createGraphQLAnswers, type FormatError } from './graphql-answer.js';
import { graphqlRequestOf, type GraphQLRequest } from './graphql-request.js';
import { NOT_ACCEPTABLE, negotiatedType, RESULT_TYPES, readBody } from './request-body.js';

interface GraphQLHttpOptions {
  server: ApolloServer<GraphQLContext>;
  catalogue: OperationCatalogue;
  /** The listener's edge: its variant labels the metrics and refusals of /graphql there. */
  edge: Edge;
  formatError: FormatError;
  /** What a failure to read the body means (too large: 413), said in GraphQL's shape. */
  classify: Classify;
  /** Counts which path answered each request: executed compiled, from the cache, or by Apollo. */
  requests?: { inc(labels: { path: 'compiled' | 'cached' | 'apollo' }): void };
  /** Times each admitted operation, from its admission to its answer (graphql.server.operation.duration). */
  operations?: (name: string | undefined, type: string, seconds: number) => void;
  /** The kept answers (shared by the listeners: the versions say which data they were computed from). */
  answers: ReturnType<typeof createResponseCache>;
  /** Largest accepted body; a larger one is refused with 413 before it is read whole. */
  maxBodyBytes: number;
}

/** The edge's route step for /graphql: the catalogue's operation, if this method may run it here. */
function routeFor(catalogue: OperationCatalogue, request: GraphQLRequest, caller: Principal | null): PreparedOperation | ApiError {
  const found = catalogue.find(request, caller);
  if (found instanceof ApiError) return found;
  if (found.kind === 'subscription') {
    return new ApiError(400, 'subscriptions are served over WebSocket at /graphql and Server-Sent Events at /graphql/stream');
  }
  if (request.method === 'GET' && found.kind !== 'query') {
    return new ApiError(405, `GET requests only support query operations, not ${found.kind} operations`, { Allow: 'POST' });
  }
  return found;
}

type AdmittedOperation = Admitted<PreparedOperation, Record<string, unknown>>;

/** /graphql's entrance to the edge: the catalogue's operation, its plans, its coerced variables. */
function entranceOf(catalogue: OperationCatalogue): Entrance<GraphQLRequest, PreparedOperation, Record<string, unknown>> {
  return {
    transport: 'graphql',
    // Introspection alone needs no key, so Sandbox can load the schema (off in production).
    mayBeOpen: true,
    find: (request, caller) => routeFor(catalogue, request, caller),
    access: (operation) => ({
      requirements: operation.analysis.requirements,
      what: 'this operation',
      usageName: operation.name,
      open: !operation.analysis.readsData,
    }),
    parameters: (operation, request) => {
      const coerced = catalogue.coerce(operation, request.variables);
      return coerced instanceof ApiError ? coerced : coerced.values;
    },
  };
}

export function createGraphQLHttpHandler(options: GraphQLHttpOptions) {
  const { server, edge, catalogue, requests } = options;
  const door = edge.door(entranceOf(catalogue));
  const answers = createGraphQLAnswers(options.formatError);
  const { runCached, runCompiled } = createCompiledRunner({ answers, kept: options.answers, requests });

  /** The key comes from the Bearer header only (D12); a malformed header is a wrong key, not none. */
  const keyOf = (req: IncomingMessage): string | undefined => presentedKey(req.headers.authorization, undefined, edge.variant);

  /** A request GraphQL over HTTP cannot read is answered in GraphQL's shape; what else fails goes to the listener. */
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const type = negotiatedType(req.headers.accept);
    let body: unknown;
    try {
      body = await readBody(req, options.maxBodyBytes);
    } catch (error) {
      // The rest of a refused body may be unread: the connection cannot carry another request.
      res.setHeader('Connection', 'close');
      return answers.refuse(req, res, type ?? RESULT_TYPES[0]!, options.classify('graphql', error), {});
    }
    const request = graphqlRequestOf(req, body);
    if (request !== undefined && type === undefined) {
      // Apollo's 406, said before anything is parsed: the answer could not be sent anyway.
      return answers.refuse(req, res, RESULT_TYPES[0]!, new ApiError(406, NOT_ACCEPTABLE, {}, { code: 'BAD_USER_INPUT' }), {});
    }
    if (request === undefined) {
      requests?.inc({ path: 'apollo' });
      return runApollo(server, req, res, body, catalogue.context(null, 'graphql'));
    }
    if (request instanceof ApiError) return answers.refuse(req, res, type!, request, {});
    const presented = { key: keyOf(req), misplacedKey: misplacedKey(req.headers, undefined, edge.variant) };
    const began = performance.now();
    return door.serve(presented, request, async (outcome) => {
      if (!outcome.admitted) return void answers.refuse(req, res, type!, outcome.error, outcome.headers);
      try {
        await run(req, res, type!, body, request, outcome);
      } finally {
        options.operations?.(outcome.target.operation.name?.value, outcome.target.kind, (performance.now() - began) / 1000);
      }
    });
  }

  /** An admitted operation, in its span when traced: its name, type and document id, and whether it ran or was kept. */
  function run(req: IncomingMessage, res: ServerResponse, type: string, body: unknown, request: GraphQLRequest, admitted: AdmittedOperation): Promise<unknown> {
    const traced = activeTracing;
    if (!traced) return runAdmitted(req, res, type, body, request, admitted);
    const { name, kind, id } = admitted.target;
    const work = () => runAdmitted(req, res, type, body, request, admitted);
    return inOperationSpan(traced, { name, type: kind, documentId: id }, work, (how) => how === 'executed');
  }

  /** An admitted operation: from the answers' cache, compiled, or by Apollo. */
  async function runAdmitted(
    req: IncomingMessage,
    res: ServerResponse,
    type: string,
    body: unknown,
    request: GraphQLRequest,
    admitted: AdmittedOperation,
  ): Promise<Ran> {
    const context = catalogue.context(admitted.principal, 'graphql', { admitted: true });
    Object.assign(context.responseHeaders, admitted.headers);
    // Compiled once admitted (the first time this text runs), never for a caller the edge refused.
    const compiled = catalogue.compiled(admitted.target);
    if (compiled && admitted.target.answers) return runCached(req, res, type, admitted.target, compiled, context, admitted.params);
    if (compiled) await runCompiled(req, res, type, compiled, context, admitted.params);
    else {
      requests?.inc({ path: 'apollo' });
      await runApollo(server, req, res, body, context, { ...request, query: admitted.target.text });
    }
    return 'executed';
  }

  return handle;
}
