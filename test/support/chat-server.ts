/**
 * A loopback HTTP server that speaks the OpenAI chat-completions protocol, scripted per request:
 * the real thing (a model provider) is out of reach in tests, the HTTP exchange is not.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** What to do with one request; the last one repeats for any further requests. */
export type ChatReply =
  | { kind: 'answer'; content: string }
  | { kind: 'status'; status: number; body?: string; retryAfter?: string }
  | { kind: 'raw'; body: string }
  | { kind: 'hang' };

export interface ChatServer {
  baseUrl: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}

export function completion(content: string) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

function reply(res: ServerResponse, r: ChatReply): void {
  switch (r.kind) {
    case 'answer':
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(r.content)));
      return;
    case 'status':
      res
        .writeHead(r.status, { 'content-type': 'application/json', ...(r.retryAfter ? { 'retry-after': r.retryAfter } : {}) })
        .end(r.body ?? JSON.stringify({ error: { message: 'scripted failure' } }));
      return;
    case 'raw':
      res.writeHead(200, { 'content-type': 'application/json' }).end(r.body);
      return;
    case 'hang':
      return; // never answers; the client's timeout must end it
  }
}

export async function startChatServer(script: ChatReply[]): Promise<ChatServer> {
  const requests: ChatRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* kept as text */
      }
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      reply(res, script[Math.min(requests.length - 1, script.length - 1)]!);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
