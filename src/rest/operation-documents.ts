/**
 * The GraphQL operations behind a REST facade, served as documents at
 * `/graphql/operations/<Name>.graphql` (public, like openapi.json): the exact text the catalogue
 * registered and the facade runs, so a client team can generate its code from it and run it on
 * /graphql unchanged (trusted even under TRUSTED_DOCUMENTS=enforce). docs/migration.md.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../domain/refusal.js';
import { matchesEtag } from '../graphql/answers/kept-answers.js';

export const OPERATIONS_PATH = '/graphql/operations/';

/** The operation a route runs, as a client finds it. */
export interface RouteOperation {
  name: string;
  /** The document's text, exactly as served (and run by the facade). */
  document: string;
  /** Where it is served, on the listener of its facade. */
  href: string;
  /** The sha256 of the text: its persisted id (APQ, `documentId`, trusted documents). */
  sha256: string;
}

export const operationHrefOf = (name: string): string => `${OPERATIONS_PATH}${name}.graphql`;

/** Serves the documents; `name` is what follows OPERATIONS_PATH. Refusals are thrown for the listener's error renderer. */
export function createOperationDocuments(operations: readonly RouteOperation[]) {
  const served = new Map(operations.map((op) => [`${op.name}.graphql`, { bytes: Buffer.from(op.document), etag: `"${op.sha256}"` }]));
  const names = operations.map((op) => op.name).join(', ');
  if (served.size !== operations.length) throw new Error(`two routes of one facade run operations of the same name (${names}): a name must find one document`);

  return function serve(req: IncomingMessage, res: ServerResponse, name: string): true {
    const found = served.get(name);
    if (!found) throw new ApiError(404, `no operation document ${OPERATIONS_PATH}${name}; this listener serves ${names}`);
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new ApiError(405, `${req.method} is not allowed here; use GET or HEAD`, { Allow: 'GET, HEAD' });
    res.setHeader('ETag', found.etag);
    // They change only with a deploy: a client revalidates, and a 304 costs nothing.
    res.setHeader('Cache-Control', 'no-cache');
    if (matchesEtag(req.headers['if-none-match'], found.etag)) {
      res.statusCode = 304;
      res.end();
      return true;
    }
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Content-Length', found.bytes.length);
    res.end(found.bytes);
    return true;
  };
}
