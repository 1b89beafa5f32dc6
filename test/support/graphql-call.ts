/**
 * GraphQL over HTTP for tests, so that each file does not keep a copy of its own: by fetch to a
 * base URL (a service in a child process), or through an in-process listener's supertest agent
 * (service.ts); one call with a key, and what tests make through it (a price alert).
 */
import type supertest from 'supertest';

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

/**
 * POST `{ query, variables }` to /graphql through an in-process listener's agent, with `key` as the
 * bearer (null: no Authorization header).
 */
export function graphqlPost(agent: supertest.Agent, key: string | null, query: string, variables?: Record<string, unknown>): supertest.Test {
  const request = agent.post('/graphql').set('Content-Type', 'application/json');
  if (key !== null) request.set('Authorization', `Bearer ${key}`);
  return request.send({ query, ...(variables ? { variables } : {}) });
}

/** What a query answers through an agent, asserting it answered without errors. */
export async function graphqlData<T>(agent: supertest.Agent, key: string, query: string, variables?: Record<string, unknown>): Promise<T> {
  const res = await graphqlPost(agent, key, query, variables);
  expect(res.body.errors).toBeUndefined();
  return res.body.data as T;
}

export const CREATE_PRICE_ALERT = 'mutation($in: CreatePriceAlertInput!) { createPriceAlert(input: $in) { id } }';

/** The input of a price alert on BTC/USD above `threshold`. */
export const priceAlertAbove = (threshold: number) => ({ in: { symbol: 'BTC/USD', kind: 'PRICE_ABOVE', threshold } });

/** A price alert on BTC/USD made through /graphql: above `threshold` (1e9: never triggers; 0.01: the next tick triggers it). */
export function createPriceAlert(base: string, key: string, threshold: number): Promise<GraphqlAnswer<{ createPriceAlert?: { id: string } }>> {
  return graphqlCall(base, key, CREATE_PRICE_ALERT, priceAlertAbove(threshold));
}
