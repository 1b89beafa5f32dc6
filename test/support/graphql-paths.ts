/** How many /graphql requests each path has answered, read from a listener's /metrics. */
import type supertest from 'supertest';

export async function answeredBy(listener: supertest.Agent): Promise<{ compiled: number; apollo: number }> {
  const text = (await listener.get('/metrics')).text;
  const count = (path: string) => Number(new RegExp(`mgw_graphql_requests_total\\{path="${path}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
  return { compiled: count('compiled'), apollo: count('apollo') };
}
