/**
 * GraphQL over HTTP by fetch, for tests of services in child processes (their listeners' base
 * URLs): one call with a key, and the objects tests make through it (a price alert), so that each
 * file does not keep a copy of its own. In-process services are called through their supertest
 * agents (service.ts) instead.
 */

export interface GraphqlAnswer<T = Record<string, unknown>> {
  status: number;
  data?: T;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

/** POST `{ query, variables }` to `<base>/graphql` with `key` as its bearer; the status and the parsed body. */
export async function graphqlCall<T = Record<string, unknown>>(base: string, key: string, query: string, variables?: object): Promise<GraphqlAnswer<T>> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, ...((await res.json()) as Omit<GraphqlAnswer<T>, 'status'>) };
}

const CREATE_PRICE_ALERT = 'mutation($in: CreatePriceAlertInput!) { createPriceAlert(input: $in) { id } }';

/** A price alert on BTC/USD made through /graphql: above `threshold` (1e9: never triggers; 0.01: the next tick triggers it). */
export function createPriceAlert(base: string, key: string, threshold: number): Promise<GraphqlAnswer<{ createPriceAlert?: { id: string } }>> {
  return graphqlCall(base, key, CREATE_PRICE_ALERT, { in: { symbol: 'BTC/USD', kind: 'PRICE_ABOVE', threshold } });
}
