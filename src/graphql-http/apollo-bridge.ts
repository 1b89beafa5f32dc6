/** Hands a request to Apollo Server as its Express integration would, and writes Apollo's answer. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ApolloServer, HeaderMap } from '@apollo/server';
import type { GraphQLContext } from '../graphql/context.js';
import type { GraphQLRequest } from './graphql-request.js';

/** Apollo's own answer, as its Express integration would give it; `request` rewrites what it reads to the catalogue's text. */
export async function runApollo(
  server: ApolloServer<GraphQLContext>,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  context: GraphQLContext,
  request?: GraphQLRequest,
): Promise<void> {
  const headers = new HeaderMap();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const url = req.url ?? '';
  let search = url.includes('?') ? url.slice(url.indexOf('?')) : '';
  if (request) {
    // Admitted already, and judged safe from forgery (a key in the header, or Apollo's own preflight header).
    headers.set('apollo-require-preflight', 'true');
    const { query, operationName, variables, extensions } = request;
    body = req.method === 'POST' ? { query, variables, ...(operationName ? { operationName } : {}), ...(extensions ? { extensions } : {}) } : undefined;
    if (req.method === 'GET')
      search = `?${new URLSearchParams({ query: query!, ...(operationName ? { operationName } : {}), variables: JSON.stringify(variables) })}`;
  }
  const answer = await server.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: req.method!.toUpperCase(), headers, search, body },
    context: async () => context,
  });
  for (const [name, value] of answer.headers) res.setHeader(name, value);
  for (const [name, value] of Object.entries(context.responseHeaders)) res.setHeader(name, value);
  res.statusCode = answer.status ?? 200;
  if (answer.body.kind === 'complete') {
    res.end(answer.body.string);
    return;
  }
  for await (const chunk of answer.body.asyncIterator) res.write(chunk);
  res.end();
}
