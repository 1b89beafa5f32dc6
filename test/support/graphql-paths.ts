/** How many /graphql requests each path has answered, read from a listener's /metrics. */
import type supertest from 'supertest';

const count = (text: string, path: string) => Number(new RegExp(`mgw_graphql_requests_total\\{path="${path}"\\} (\\d+)`).exec(text)?.[1] ?? 0);

/** `compiled`: the compiled path, executed or answered from its kept answers; `apollo`: Apollo. */
export async function answeredBy(listener: supertest.Agent): Promise<{ compiled: number; apollo: number }> {
  const text = (await listener.get('/metrics')).text;
  return { compiled: count(text, 'compiled') + count(text, 'cached'), apollo: count(text, 'apollo') };
}

/** Of the compiled path's answers: how many executed, and how many came from kept answers (nothing executed). */
export async function executions(listener: supertest.Agent): Promise<{ executed: number; cached: number }> {
  const text = (await listener.get('/metrics')).text;
  return { executed: count(text, 'compiled'), cached: count(text, 'cached') };
}
