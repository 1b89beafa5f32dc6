/**
 * One delivery attempt: a POST of the event's body with its signature headers, through the
 * filtering agent, within a time bound, without following redirects (node's http client never
 * does). Only the start of the receiver's answer is kept.
 */
import http, { type Agent } from 'node:http';
import https from 'node:https';
import type { ConnectAgents } from './destination.js';
import type { AttemptResult } from './retry-schedule.js';

/** How much of a receiver's answer is kept (for `webhooks deliveries`); the rest is not read. */
export const KEPT_RESPONSE_BYTES = 1_024;

interface Target {
  url: string;
  body: string;
  headers: Record<string, string>;
}

interface SendOptions {
  agents: ConnectAgents;
  timeoutMs: number;
  userAgent: string;
  signal?: AbortSignal | undefined;
}

/** The name has no address of the family tried. */
const NO_ADDRESS = /^(ENOTFOUND|ENODATA)\b/;

export async function sendAttempt(target: Target, options: SendOptions): Promise<AttemptResult> {
  const url = new URL(target.url);
  const deadline = Date.now() + options.timeoutMs;
  const [first, ...others] = await options.agents.for(url);
  let result = await sendThrough(url, first!, target, options, options.timeoutMs);
  for (const agent of others) {
    if (result.kind !== 'failed' || !NO_ADDRESS.test(result.error)) break;
    result = await sendThrough(url, agent, target, options, Math.max(1, deadline - Date.now()));
  }
  return result;
}

function sendThrough(url: URL, agent: Agent, target: Target, options: SendOptions, timeoutMs: number): Promise<AttemptResult> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        signal: options.signal,
        agent,
        headers: {
          ...target.headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(target.body),
          'user-agent': options.userAgent,
        },
      },
      (response) => {
        const kept: Buffer[] = [];
        let size = 0;
        const answered = () =>
          settle({
            kind: 'answered',
            status: response.statusCode ?? 0,
            retryAfter: response.headers['retry-after'],
            response: Buffer.concat(kept).subarray(0, KEPT_RESPONSE_BYTES).toString('utf8'),
          });
        response.on('data', (chunk: Buffer) => {
          if (size < KEPT_RESPONSE_BYTES) kept.push(chunk);
          size += chunk.length;
          // Enough is kept: the rest of a large answer is not read.
          if (size >= KEPT_RESPONSE_BYTES) {
            answered();
            response.destroy();
          }
        });
        response.on('end', answered);
        response.on('error', answered);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      settle({ kind: 'failed', error: `no answer within ${options.timeoutMs} ms` });
    }, timeoutMs);
    request.on('error', (error) => settle({ kind: 'failed', error: describeConnectionError(error) }));
    request.end(target.body);
  });
}

/** A connection's failure in a line: the filtering agent's refusal as it says it, else the system's code. */
function describeConnectionError(error: Error & { code?: string }): string {
  if (/is not allowed/.test(error.message)) return `destination refused: ${error.message}`;
  return error.code ? `${error.code}${error.message ? `: ${error.message}` : ''}` : error.message || error.name;
}
