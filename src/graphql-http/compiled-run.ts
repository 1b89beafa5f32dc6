/**
 * An admitted query run compiled (graphql-jit), its errors through the one formatter; or, where its
 * answer may be kept, answered from the kept answers while the data's version holds.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExecutionResult } from 'graphql';
import type { OperationCatalogue } from '../graphql/catalogue/catalogue.js';
import type { PreparedOperation } from '../graphql/catalogue/prepare.js';
import type { createResponseCache } from '../graphql/answers/kept-answers.js';
import type { GraphQLContext } from '../graphql/context.js';
import type { GraphQLAnswers } from './graphql-answer.js';

type Compiled = NonNullable<ReturnType<OperationCatalogue['compiled']>>;

/** Whether an operation's answer was executed now or answered from a kept one. */
export type Ran = 'executed' | 'cached';

/** A result with errors, carried out of the cache's computation so that it is sent but not kept. */
class Uncacheable {
  readonly result: ExecutionResult;

  constructor(result: ExecutionResult) {
    this.result = result;
  }
}

interface RunnerOptions {
  answers: GraphQLAnswers;
  /** The kept answers (shared by the listeners: the versions say which data they were computed from). */
  kept: ReturnType<typeof createResponseCache>;
  /** Counts which path answered each request: executed compiled, or from the cache. */
  requests?: { inc(labels: { path: 'compiled' | 'cached' | 'apollo' }): void } | undefined;
}

export function createCompiledRunner({ answers, kept, requests }: RunnerOptions) {
  /** Runs an admitted operation compiled; its errors through the one formatter. */
  async function runCompiled(
    req: IncomingMessage,
    res: ServerResponse,
    type: string,
    compiled: Compiled,
    context: GraphQLContext,
    variables: Record<string, unknown>,
  ) {
    requests?.inc({ path: 'compiled' });
    const result = await compiled.query(undefined, context, variables);
    if (!result.errors?.length) return answers.send(req, res, type, 200, result, context.responseHeaders);
    answers.sendErrors(req, res, type, result, context.responseHeaders);
  }

  /**
   * An answer that may be kept (answers/kept-answers.ts): served from the cache while its data's version
   * holds, computed once for concurrent identical requests, its ETag answering If-None-Match with
   * 304 before anything runs. A result with errors is sent, never kept.
   */
  async function runCached(
    req: IncomingMessage,
    res: ServerResponse,
    type: string,
    operation: PreparedOperation,
    compiled: Compiled,
    context: GraphQLContext,
    variables: Record<string, unknown>,
  ): Promise<Ran> {
    const versioning = operation.answers!; // only operations whose answers may be kept come here
    const what = `${operation.id}|${operation.operation.name?.value ?? ''}`;
    let computed = false;
    let failed: ExecutionResult | undefined;
    let body: Awaited<ReturnType<typeof kept.answer>> | undefined;
    try {
      body = await kept.answer(versioning, context.services, context.principal, what, variables, async () => {
        computed = true;
        const result = await compiled.query(undefined, context, variables);
        if (result.errors?.length) throw new Uncacheable(result);
        return result;
      });
    } catch (error) {
      if (!(error instanceof Uncacheable)) throw error;
      failed = error.result;
    }
    requests?.inc({ path: computed ? 'compiled' : 'cached' });
    if (!body) answers.sendErrors(req, res, type, failed!, context.responseHeaders);
    else answers.sendBytes(req, res, type, 200, body.bytes, context.responseHeaders, body.etag);
    return computed ? 'executed' : 'cached';
  }

  return { runCompiled, runCached };
}
