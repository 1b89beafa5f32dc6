/** The operation catalogue: one preparation per text, a bounded cache, persisted ids, the trusted-documents policy. */
import pino from 'pino';
import { type GraphQLError, print, parse } from 'graphql';
import { createOperationCatalogue, type OperationCatalogue } from '../../../../src/graphql/catalogue/catalogue.js';
import { ApiError } from '../../../../src/domain/refusal.js';
import { operationId, type PreparedOperation } from '../../../../src/graphql/catalogue/prepare.js';
import { createTrustedDocuments, type TrustedDocumentsMode } from '../../../../src/graphql/catalogue/trusted-documents.js';
import { guardRules } from '../../../../src/graphql/catalogue/guards.js';
import { createSchema } from '../../../../src/graphql/schema.js';
import type { GraphQLServices } from '../../../../src/graphql/services.js';
import type { Principal } from '../../../../src/auth/authenticator.js';

const schema = createSchema();
const services = {} as GraphQLServices;
const catalogueOf = (options: { maxEntries?: number; maxCharacters?: number } = {}) =>
  createOperationCatalogue({ schema, services, validationRules: guardRules(), ...options });
const get = (catalogue: OperationCatalogue, query: string, operationName?: string) => catalogue.find({ query, operationName }, null);
const ok = (found: PreparedOperation | ApiError) => {
  if (found instanceof ApiError) throw new Error(found.message);
  return found;
};

it('prepares a text once and hands back the same operation; the operation name is part of the key', () => {
  const catalogue = catalogueOf();
  const text = '{ predictionMarkets { count } }';
  const first = ok(get(catalogue, text));
  expect(first.analysis.requirements).toEqual({ prediction: 'PRO' });
  expect(first.runsCompiled).toBe(true);
  expect(catalogue.compiled(first)).toBeDefined();
  expect(catalogue.compiled(first)).toBe(catalogue.compiled(first)); // compiled once, on first use
  expect(first.id).toBe(operationId(text));
  expect(get(catalogue, text)).toBe(first);
  const named = 'query A { viewer { name } } query B { viewer { accountId } }';
  expect(get(catalogue, named, 'A')).not.toBe(get(catalogue, named, 'B'));
});

it('compiles only queries that read data; mutations and introspection are prepared for Apollo, uncompiled', () => {
  const catalogue = catalogueOf();
  expect(catalogue.compiled(ok(get(catalogue, 'mutation { _noop }')))).toBeUndefined();
  expect(catalogue.compiled(ok(get(catalogue, '{ __schema { queryType { name } } }')))).toBeUndefined();
  expect(catalogue.compiled(ok(get(catalogue, '{ viewer { accountId } __type(name: "Query") { name } }')))).toBeUndefined();
});

it("refuses what does not parse, validate or name one operation, in graphql-js's words", () => {
  const catalogue = catalogueOf();
  const invalid = get(catalogue, '{ predictionMarkets { nope } }');
  expect(invalid).toBeInstanceOf(ApiError);
  expect((invalid as ApiError).graphql!.errors![0]!.message).toMatch(/Cannot query field "nope"/);
  expect(((invalid as ApiError).graphql!.errors![0] as GraphQLError).locations).toEqual([{ line: 1, column: 23 }]);
  expect((get(catalogue, '{ predictionMarkets {') as ApiError).message).toMatch(/Syntax Error/);
  expect((get(catalogue, 'query A { viewer { name } } query B { viewer { accountId } }') as ApiError).message).toMatch(/operation name/);
  expect((get(catalogue, '{ viewer { name } }', 'Nope') as ApiError).message).toBe('Unknown operation named "Nope".');
  // The guards' rules apply here, for every transport.
  const aliased = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: viewer { name }`).join(' ')} }`;
  expect(get(catalogue, aliased(15))).not.toBeInstanceOf(ApiError);
  expect((get(catalogue, aliased(16)) as ApiError).message).toMatch(/Aliases limit of 15 exceeded/);
});

it('keeps at most maxEntries texts, least recently used dropped first', () => {
  const catalogue = catalogueOf({ maxEntries: 2 });
  const [a, b, c] = [1, 2, 3].map((n) => `{ predictionMarkets(limit: ${n}) { count } }`) as [string, string, string];
  const firstA = get(catalogue, a);
  const firstB = get(catalogue, b);
  expect(get(catalogue, a)).toBe(firstA); // a used again: b is now the oldest
  const firstC = get(catalogue, c); // the third text: b is dropped
  expect(get(catalogue, a)).toBe(firstA);
  expect(get(catalogue, c)).toBe(firstC);
  const secondB = get(catalogue, b); // prepared again
  expect(secondB).not.toBeInstanceOf(ApiError);
  expect(secondB).not.toBe(firstB);
});

it('is bounded by the size of the texts too: a text larger than the whole budget is prepared but not kept', () => {
  const catalogue = catalogueOf({ maxCharacters: 5_000 });
  const big = `# ${'x'.repeat(4_000)}\n{ viewer { name } }`;
  expect(big.length).toBeGreaterThan(3_000);
  const once = get(catalogue, big);
  expect(once).not.toBeInstanceOf(ApiError);
  expect(get(catalogue, big)).not.toBe(once);
  const small = '{ viewer { name } }';
  expect(get(catalogue, small)).toBe(get(catalogue, small));
});

it("keeps Apollo's documents (mutations, introspection) bounded by size too: each pins its text", async () => {
  const catalogue = catalogueOf({ maxCharacters: 20_000 });
  const big = (n: number) => `mutation { _noop } # ${n} ${'x'.repeat(6_000)}`;
  const ids = [1, 2, 3, 4].map((n) => ok(get(catalogue, big(n))).id);
  // At most about three 6 KB texts fit in 20 000 characters: the oldest went, the newest stays.
  expect(await catalogue.documentStore.get(`schema:${ids[0]}`)).toBeUndefined();
  expect(await catalogue.documentStore.get(`schema:${ids[3]}`)).toBeDefined();
});

describe('persisted ids (APQ)', () => {
  const text = '{ viewer { accountId } }';
  const id = operationId(text);

  it('answers an unknown hash PERSISTED_QUERY_NOT_FOUND, registers it with its text, then finds it by hash alone', () => {
    const catalogue = catalogueOf();
    expect(catalogue.find({ id }, null)).toMatchObject({ status: 404, graphql: { code: 'PERSISTED_QUERY_NOT_FOUND' }, message: 'PersistedQueryNotFound' });
    const registered = ok(catalogue.find({ id, query: text }, null));
    expect(catalogue.find({ id }, null)).toBe(registered);
    expect(catalogue.find({ id: id.toUpperCase() }, null)).toBe(registered);
  });

  it('refuses a hash that is not the sha256 of the text sent with it, and registers nothing', () => {
    const catalogue = catalogueOf();
    expect(catalogue.find({ id: operationId('{ other }'), query: text }, null)).toMatchObject({
      status: 400,
      graphql: { code: 'BAD_USER_INPUT' },
      message: 'provided sha does not match query',
    });
    expect(catalogue.find({ id: operationId('{ other }') }, null)).toMatchObject({ status: 404, graphql: { code: 'PERSISTED_QUERY_NOT_FOUND' } });
  });

  it("knows a REST route's operation by its hash, registered at start, and refuses a route that does not compile", () => {
    const catalogue = catalogueOf();
    const document = parse('query MarketsPage { predictionMarkets(limit: 5) { count } }');
    const route = catalogue.register('GET /api/v1/markets', document);
    expect(catalogue.find({ id: operationId(print(document)) }, null)).toBe(route);
    expect(() => catalogue.register('GET /broken', parse('{ nope }'))).toThrow(/GET \/broken is invalid: Cannot query field "nope"/);
    expect(() => catalogue.register('GET /mutation', parse('mutation { _noop }'))).toThrow(/does not compile/);
  });

  it('keeps unknown hashes out of memory: a flood of them evicts nothing that was registered', () => {
    const catalogue = catalogueOf({ maxEntries: 10 });
    const registered = ok(catalogue.find({ id, query: text }, null));
    for (let i = 0; i < 1_000; i++)
      expect(catalogue.find({ id: operationId(`{ n${i} }`) }, null)).toMatchObject({ status: 404, graphql: { code: 'PERSISTED_QUERY_NOT_FOUND' } });
    // Had each unknown hash taken a place, the ten places would have pushed the registered text out.
    expect(catalogue.find({ id }, null)).toBe(registered);
  });
});

describe('trusted documents', () => {
  const trustedText = 'query Dashboard { viewer { accountId } }';
  const otherText = '{ viewer { name } }';
  const logger = pino({ level: 'silent' });
  const route = parse('query MarketsPage { predictionMarkets(limit: 5) { count } }');

  async function policy(mode: TrustedDocumentsMode) {
    let untrusted = 0;
    const trusted = createTrustedDocuments({
      mode,
      source: { all: async () => [{ id: operationId(trustedText), body: trustedText }], version: async () => 1 },
      pollMs: 60_000,
      logger,
      untrusted: { inc: () => untrusted++ },
    });
    await trusted.start();
    trusted.stop();
    const catalogue = createOperationCatalogue({ schema, services, trusted });
    catalogue.register('GET /api/v1/markets', route);
    return { catalogue, untrusted: () => untrusted };
  }
  const exempt = { anyOperation: true } as Principal;
  const plain = { anyOperation: false } as Principal;

  it('enforce: runs the manifest by hash alone and the REST routes; refuses anything else, as a hash or as text, unless the key is exempt', async () => {
    const { catalogue, untrusted } = await policy('enforce');
    expect(ok(catalogue.find({ id: operationId(trustedText) }, plain)).text).toBe(trustedText);
    expect(catalogue.find({ query: trustedText }, plain)).not.toBeInstanceOf(ApiError);
    expect(catalogue.find({ query: print(route) }, plain)).not.toBeInstanceOf(ApiError);
    expect(catalogue.find({ query: otherText }, plain)).toMatchObject({ status: 404, graphql: { code: 'PERSISTED_QUERY_NOT_FOUND' } });
    expect(catalogue.find({ query: otherText, id: operationId(otherText) }, plain)).toMatchObject({
      status: 404,
      graphql: { code: 'PERSISTED_QUERY_NOT_FOUND' },
    });
    expect(catalogue.find({ query: otherText }, null)).toMatchObject({ status: 404, graphql: { code: 'PERSISTED_QUERY_NOT_FOUND' } });
    expect(untrusted()).toBe(0);
    expect(catalogue.find({ query: otherText }, exempt)).not.toBeInstanceOf(ApiError);
    expect(untrusted()).toBe(1);
  });

  it('log: an unknown operation runs and is counted', async () => {
    const { catalogue, untrusted } = await policy('log');
    expect(catalogue.find({ query: otherText }, plain)).not.toBeInstanceOf(ApiError);
    expect(catalogue.find({ query: trustedText }, plain)).not.toBeInstanceOf(ApiError);
    expect(untrusted()).toBe(1);
  });

  it('off: nothing is refused or counted, and a loaded document can still be named by its id', async () => {
    const { catalogue, untrusted } = await policy('off');
    expect(catalogue.find({ query: otherText }, plain)).not.toBeInstanceOf(ApiError);
    expect(catalogue.find({ id: `${operationId(trustedText)}` }, plain)).not.toBeInstanceOf(ApiError);
    expect(untrusted()).toBe(0);
  });
});
