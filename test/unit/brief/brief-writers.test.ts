/** The morning brief's writers: built-in, a chat-completions model on a loopback server, and the fallback between them. */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { BriefInput } from '../../../src/brief/brief-input.js';
import { BUILTIN_WRITER, composeBuiltinBrief } from '../../../src/brief/builtin-writer.js';
import { briefPrompt, createChatCompletionsWriter, LlmError } from '../../../src/brief/chat-completions-writer.js';
import { createBriefWriter } from '../../../src/brief/index.js';
import { startChatServer, type ChatReply, type ChatServer } from '../../support/chat-server.js';

const SECRET = 'sk-test-5f0e7c1b9a2d4e6f8a0b1c2d3e4f5a6b';

const INPUT: BriefInput = {
  date: '2026-11-23',
  markets: [
    { question: 'Will Democrats win the House?', prob: 0.684, volume24h: 28_400_000, source: 'demo', move24hPts: 3.2 },
    { question: 'Will the Fed cut in December?', prob: 0.455, volume24h: 640_000, source: 'demo', move24hPts: 7 },
    { question: 'Will a new market open?', prob: 0.1, volume24h: 900, source: 'demo', move24hPts: null },
  ],
  movements: [
    { question: 'Will the Fed cut in December?', prob: 0.455, move24hPts: 7 },
    { question: 'Will BTC reach 150k?', prob: 0.1475, move24hPts: -6.25 },
  ],
};

function capturingLogger() {
  const lines: string[] = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write: (chunk, _enc, done) => {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  return { logger, lines };
}

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function modelWriter(script: ChatReply[], extra: { timeoutMs?: number; retries?: number } = {}) {
  server = await startChatServer(script);
  const failures: string[] = [];
  const writer = createChatCompletionsWriter({
    baseUrl: server.baseUrl,
    model: 'test-model',
    apiKey: SECRET,
    timeoutMs: extra.timeoutMs ?? 2_000,
    retries: extra.retries ?? 2,
    backoffMs: 10,
    onAttemptFailed: (f) => failures.push(`${f.attempt}:${f.reason}:${f.retrying}`),
  });
  return { writer, failures, server };
}

describe('built-in writer', () => {
  it('names the most active markets with percent, volume and move, and the movements with their points', () => {
    const text = composeBuiltinBrief(INPUT);
    expect(text).toContain('Morning brief for 2026-11-23.');
    expect(text).toContain('1. Will Democrats win the House? 68% (+3.2 pts in 24h; $28.4M traded on demo).');
    expect(text).toContain('2. Will the Fed cut in December? 46% (+7 pts in 24h; $640K traded on demo).');
    expect(text).toContain('3. Will a new market open? 10% (little changed; $900 traded on demo).');
    // The same 24-hour figure as the list, in the same whole percents.
    expect(text).toContain('- Will the Fed cut in December? rose to 46% (+7 pts in 24h, from 39%).');
    expect(text).toContain('- Will BTC reach 150k? fell to 15% (-6.3 pts in 24h, from 21%).');
    expect(text.indexOf('Democrats')).toBeLessThan(text.indexOf('Largest movements'));
  });

  it('quotes probabilities exactly as prob_pct does (halves up on basis points)', () => {
    const text = composeBuiltinBrief({
      date: '2026-11-23',
      markets: [{ question: 'Q?', prob: 0.285, volume24h: 1, source: 'demo', move24hPts: null }],
      movements: [],
    });
    expect(text).toContain('Q? 29%');
  });

  it('says so when there is nothing to report instead of writing an empty brief', () => {
    const text = composeBuiltinBrief({ date: '2026-11-23', markets: [], movements: [] });
    expect(text).toContain('No prediction market has traded');
    expect(text).toContain('No market moved by more than 5 points');
  });
});

describe('chat-completions writer on a loopback server', () => {
  it('posts the model, a system prompt and the facts, with the key as a Bearer token, and returns the answer', async () => {
    const { writer, server } = await modelWriter([{ kind: 'answer', content: '  Markets were calm overnight.  ' }]);
    await expect(writer.write(INPUT)).resolves.toBe('Markets were calm overnight.');
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe(`Bearer ${SECRET}`);
    const body = request!.body as { model: string; messages: { role: string; content: string }[] };
    expect(body.model).toBe('test-model');
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(body.messages[1]!.content).toBe(briefPrompt(INPUT));
    expect(body.messages[1]!.content).toContain('Will Democrats win the House? | 68% | 24h volume $28.4M (demo) | 24h move +3.2 pts');
    expect(writer.name).toBe('test-model');
  });

  it('retries a 500 and succeeds when the provider recovers', async () => {
    const { writer, failures, server } = await modelWriter([
      { kind: 'status', status: 500 },
      { kind: 'status', status: 503 },
      { kind: 'answer', content: 'Recovered brief.' },
    ]);
    await expect(writer.write(INPUT)).resolves.toBe('Recovered brief.');
    expect(server.requests).toHaveLength(3);
    expect(failures).toEqual(['1:provider answered HTTP 500:true', '2:provider answered HTTP 503:true']);
  });

  it('gives up after the bounded retries when the provider keeps failing', async () => {
    const { writer, server } = await modelWriter([{ kind: 'status', status: 500 }], { retries: 2 });
    await expect(writer.write(INPUT)).rejects.toThrow(new LlmError('provider answered HTTP 500', true));
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400: the request itself is wrong', async () => {
    const { writer, server } = await modelWriter([
      { kind: 'status', status: 400 },
      { kind: 'answer', content: 'never' },
    ]);
    await expect(writer.write(INPUT)).rejects.toThrow('provider answered HTTP 400');
    expect(server.requests).toHaveLength(1);
  });

  it('honours Retry-After on a 429 when it fits the budget', async () => {
    const { writer, server } = await modelWriter([
      { kind: 'status', status: 429, retryAfter: '0' },
      { kind: 'answer', content: 'After the pause.' },
    ]);
    await expect(writer.write(INPUT)).resolves.toBe('After the pause.');
    expect(server.requests).toHaveLength(2);
  });

  it('stops a provider that never answers within the whole budget, retries included', async () => {
    const { writer, server } = await modelWriter([{ kind: 'hang' }], { timeoutMs: 300, retries: 5 });
    const started = Date.now();
    await expect(writer.write(INPUT)).rejects.toThrow(/no answer within/);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(1_500);
    expect(server.requests.length).toBeGreaterThanOrEqual(1);
  });

  it.each([
    ['not JSON', 'this is not json', /answer is not JSON/],
    ['no choices', JSON.stringify({ choices: [] }), /malformed answer: choices no choices/],
    ['empty content', JSON.stringify({ choices: [{ message: { content: '   ' } }] }), /malformed answer: choices\.0\.message\.content empty answer/],
    ['content not a string', JSON.stringify({ choices: [{ message: { content: 42 } }] }), /malformed answer/],
  ])('rejects a malformed answer (%s) without retrying', async (_name, body, message) => {
    const { writer, server } = await modelWriter([{ kind: 'raw', body }]);
    await expect(writer.write(INPUT)).rejects.toThrow(message);
    expect(server.requests).toHaveLength(1);
  });
});

describe('createBriefWriter', () => {
  it('uses the built-in writer when no model is configured', async () => {
    const { logger } = capturingLogger();
    const composer = createBriefWriter({ llmModel: 'unused', llmTimeoutMs: 1000 }, logger);
    await expect(composer.write(INPUT)).resolves.toEqual({ text: composeBuiltinBrief(INPUT), writer: BUILTIN_WRITER });
  });

  it('names the model as the writer when the model answers', async () => {
    server = await startChatServer([{ kind: 'answer', content: 'From the model.' }]);
    const { logger } = capturingLogger();
    const composer = createBriefWriter({ llmBaseUrl: server.baseUrl, llmModel: 'm-1', llmApiKey: SECRET, llmTimeoutMs: 2000 }, logger);
    await expect(composer.write(INPUT)).resolves.toEqual({ text: 'From the model.', writer: 'm-1' });
  });

  it.each<[string, ChatReply]>([
    ['a 500 every time', { kind: 'status', status: 500, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${SECRET}` } }) }],
    ['a hang', { kind: 'hang' }],
    ['a malformed answer', { kind: 'raw', body: '{"choices":"nope"}' }],
    ['a 401 that echoes the key', { kind: 'status', status: 401, body: `invalid key ${SECRET}` }],
  ])('falls back to the built-in writer on %s, logs why, and never logs the key', async (_name, reply) => {
    server = await startChatServer([reply]);
    const { logger, lines } = capturingLogger();
    const composer = createBriefWriter(
      { llmBaseUrl: server.baseUrl, llmModel: 'm-1', llmApiKey: SECRET, llmTimeoutMs: 400, llmRetries: 1, llmBackoffMs: 5 },
      logger,
    );
    await expect(composer.write(INPUT)).resolves.toEqual({ text: composeBuiltinBrief(INPUT), writer: BUILTIN_WRITER });
    expect(lines.some((l) => l.includes('using the built-in writer'))).toBe(true);
    expect(lines.join('\n')).not.toContain(SECRET);
    expect(lines.join('\n')).not.toContain(SECRET.slice(3, 15));
  });
});
