/**
 * Our own bug, end to end (the promise of src/edge/classify.ts): a request whose work throws an
 * error nobody classified is a bare 500 in the transport's shape, the same on every transport
 * (variant A's and B's envelopes, `/graphql`'s INTERNAL_SERVER_ERROR), saying nothing of the error,
 * and the log has it whole, once, at level error, with the path that met it.
 */
import { ModuleMocker } from 'jest-mock';
import { bearer, startTestService, type TestService } from '../support/service.js';

const mocks = new ModuleMocker(globalThis);

let t: TestService;
const logLines: string[] = [];
/** What a bug's message might carry that must never reach a client. */
const SECRET_DETAIL = "Cannot read properties of undefined (reading 'hash') at /work/src/readmodel/x.ts:12";

beforeAll(async () => {
  t = await startTestService({ env: { LOG_LEVEL: 'info' }, logSink: { write: (line) => void logLines.push(line) } });
});
afterAll(() => t?.close());
afterEach(() => mocks.restoreAllMocks());

const bug = () => {
  throw new TypeError(SECRET_DETAIL);
};
const errorLogs = () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((l) => l.level === 50 && l.msg === 'internal error');

it.each([
  ['A', 'success'],
  ['B', 'ok'],
] as const)("variant %s's REST facade: 500 in its envelope, internal_error, nothing of the error; logged whole with its stack", async (variant, flag) => {
  const { key } = await t.createKey('enterprise', 'pro');
  const before = errorLogs().length;
  if (variant === 'A') mocks.spyOn(t.service.markets, 'list').mockImplementation(bug);
  else mocks.spyOn(t.service.predictions, 'top').mockImplementation(bug);
  const answer = await (variant === 'A' ? t.a : t.b).get('/api/v1/markets').set(bearer(key));
  expect(answer.status).toBe(500);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.body).toEqual({ [flag]: false, error: { code: 500, type: 'internal_error', message: 'internal error' } });
  expect(answer.text).not.toMatch(/hash|x\.ts|TypeError|stack/);
  const logged = errorLogs().slice(before);
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatchObject({ where: 'rest', err: { type: 'TypeError', message: SECRET_DETAIL, stack: expect.stringContaining('TypeError') } });
});

it('/graphql: INTERNAL_SERVER_ERROR with a bare message, nothing of the error; logged whole', async () => {
  const { key } = await t.createKey('enterprise');
  const before = errorLogs().length;
  mocks.spyOn(t.service.markets, 'list').mockImplementation(bug);
  const answer = await t.a.post('/graphql').set(bearer(key)).send({ query: '{ assetMarkets(limit: 3) { total } }' });
  expect(answer.body.errors).toEqual([expect.objectContaining({ message: 'internal error', extensions: { code: 'INTERNAL_SERVER_ERROR' } })]);
  expect(answer.text).not.toMatch(/hash|x\.ts|TypeError|stack/);
  const logged = errorLogs().slice(before);
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatchObject({ where: 'graphql', err: { message: SECRET_DETAIL } });
});
