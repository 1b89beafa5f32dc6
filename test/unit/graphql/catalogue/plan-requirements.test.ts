/**
 * Plan analysis of operations, on the real schema: the least plan per product an operation needs,
 * whether it reads data, and the plan check of the domain.
 */
import { parse, type OperationDefinitionNode } from 'graphql';
import { DomainError } from '../../../../src/domain/errors.js';
import { assertPlan } from '../../../../src/domain/plans.js';
import { analyzeOperation, collectFieldRequirements } from '../../../../src/graphql/catalogue/plan-requirements.js';
import { createSchema } from '../../../../src/graphql/schema.js';

const schema = createSchema();
const fields = collectFieldRequirements(schema);
const analyze = (text: string) => {
  const document = parse(text);
  return analyzeOperation(schema, fields, document, document.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode);
};

it.each([
  ['a free field', '{ assetMarkets { total } }', { marketData: 'FREE' }],
  ['the highest tier of one product wins', '{ assetMarkets { total } assetBrief(symbols: ["BTC/USD"]) { interval } }', { marketData: 'PRO' }],
  ['both products', '{ assetMarkets { total } predictionMarkets { count } }', { marketData: 'FREE', prediction: 'PRO' }],
  ['through an alias', '{ x: assetBrief(symbols: ["BTC/USD"]) { interval } }', { marketData: 'PRO' }],
  ['through a fragment', 'query { ...F } fragment F on Query { predictionMarkets { count } }', { prediction: 'PRO' }],
  ['through an inline fragment', '{ ... on Query { priceAlerts { total } } }', { marketData: 'PRO' }],
  ['a mutation', 'mutation { cancelPriceAlert(id: "x") { id } }', { marketData: 'PRO' }],
])('%s', (_name, text, requirements) => {
  expect(analyze(text)).toMatchObject({ requirements, readsData: true });
});

it('introspection alone reads no data and needs no plan; __typename alone is not introspection', () => {
  expect(analyze('{ __schema { queryType { name } } }')).toMatchObject({ requirements: {}, readsData: false, readsIntrospection: true });
  expect(analyze('{ __typename }')).toMatchObject({ requirements: {}, readsData: false, readsIntrospection: false });
  expect(analyze('{ viewer { name } __type(name: "Query") { name } }')).toMatchObject({ readsData: true, readsIntrospection: true });
});

it('the domain check refuses a plan below the requirement, naming both', () => {
  const account = { id: 'acct_1', name: 'a', marketDataPlan: 'free', predictionPlan: 'none' } as const;
  expect(() => assertPlan(account, { marketData: 'FREE' }, 'GET /api/v1/markets')).not.toThrow();
  const refusal = (() => {
    try {
      assertPlan(account, { prediction: 'PRO' }, 'this operation');
    } catch (error) {
      return error;
    }
  })();
  expect(refusal).toBeInstanceOf(DomainError);
  expect(refusal).toMatchObject({ kind: 'forbidden', message: "this operation needs the pro prediction plan or higher; this key's prediction plan is none" });
  expect(() => assertPlan({ ...account, marketDataPlan: 'enterprise' }, { marketData: 'PRO' }, 'x')).not.toThrow();
});
