/**
 * Dashboards send the same few queries over and over. The first time a query text is seen it is
 * parsed, validated and compiled to a function with graphql-jit; later requests reuse it from an
 * LRU cache. Only queries that read data get compiled. Mutations, introspection and texts that do
 * not parse or validate get `undefined` (also cached), and Apollo answers them as before.
 */
import { type DocumentNode, type GraphQLSchema, Kind, type OperationDefinitionNode, parse, specifiedRules, validate, type ValidationRule } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import { analyzeOperation, collectFieldRequirements, type OperationAnalysis } from '../graphql/plan-requirements.js';

export interface CompiledOperation {
  query: CompiledQuery;
  operation: OperationDefinitionNode;
  analysis: OperationAnalysis;
}

export interface OperationCompiler {
  get(query: string, operationName: string | undefined): CompiledOperation | undefined;
}

interface OperationCompilerOptions {
  /** Distinct query texts kept (default 1 000), and at most this many characters of them in all (default 4 M). */
  maxEntries?: number;
  maxCharacters?: number;
  /** Extra validation rules and the parse limits Apollo applies, so both paths accept the same queries. */
  validationRules?: readonly ValidationRule[];
  maxTokens?: number;
}

function selectOperation(document: DocumentNode, name: string | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (name === undefined) return operations.length === 1 ? operations[0] : undefined;
  return operations.find((o) => o.name?.value === name);
}

export function createOperationCompiler(schema: GraphQLSchema, options: OperationCompilerOptions = {}): OperationCompiler {
  const fields = collectFieldRequirements(schema);
  const rules = [...specifiedRules, ...(options.validationRules ?? [])];
  // `false` remembers a text that Apollo must answer, so it is not parsed twice per request.
  const cache = new LRUCache<string, CompiledOperation | false>({
    max: options.maxEntries ?? 1_000,
    // Bounded by size too: a thousand 100 KB texts must not pin 100 MB (a compiled query is a few KB).
    maxSize: options.maxCharacters ?? 4_000_000,
    sizeCalculation: (_value, key) => key.length + 2_000,
  });

  function compile(text: string, operationName: string | undefined): CompiledOperation | false {
    let document: DocumentNode;
    try {
      document = parse(text, options.maxTokens === undefined ? undefined : { maxTokens: options.maxTokens });
    } catch {
      return false;
    }
    if (validate(schema, document, rules).length > 0) return false;
    const operation = selectOperation(document, operationName);
    if (operation?.operation !== 'query') return false;
    const analysis = analyzeOperation(schema, fields, document, operation);
    // Introspection alone has its own rules (no key outside production, off in production).
    if (!analysis.readsData || analysis.readsIntrospection) return false;
    const query = compileQuery(schema, document, operationName);
    return isCompiledQuery(query) ? { query, operation, analysis } : false;
  }

  return {
    get(text, operationName) {
      const key = JSON.stringify([operationName ?? null, text]); // unambiguous, whatever the text holds
      let entry = cache.get(key);
      if (entry === undefined) {
        entry = compile(text, operationName);
        cache.set(key, entry);
      }
      return entry || undefined;
    },
  };
}
