/**
 * Prepares one operation, the work the catalogue does once per text: guarded parse, validation,
 * the choice of operation and its plan requirements (graphql-jit's compilation waits for an
 * admitted request: catalogue.ts). What fails becomes a refusal in graphql-js's own words, never a throw.
 */
import { createHash } from 'node:crypto';
import { ApiError } from '../../domain/refusal.js';
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
  type ValidationRule,
  specifiedRules,
} from 'graphql';
import { type AnswerVersioning, answerVersioningOf } from '../answers/kept-answers.js';
import { analyzeOperation, collectFieldRequirements, type FieldRequirements, type OperationAnalysis } from './plan-requirements.js';

/** An operation ready to run: found once, reused by every request that sends the same text. */
export interface PreparedOperation {
  /** The lowercase hex sha256 of the text: the id of APQ, trusted documents and Apollo's document store. */
  id: string;
  text: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /**
   * The operation's name; without one, its kind and root fields (`query assetMarkets`, at most three
   * and how many more): how usage records and the dashboard name it, so no call reads "anonymous".
   */
  name: string;
  kind: 'query' | 'mutation' | 'subscription';
  analysis: OperationAnalysis;
  /** A query that reads data (not introspection): it runs compiled (catalogue.compiled). Else Apollo executes it. */
  runsCompiled: boolean;
  /** For a compiled query whose answer may be kept: the version that says when it is stale, and whose it is (answers/kept-answers.ts). */
  answers?: AnswerVersioning;
}

export type RefusalCode = 'BAD_USER_INPUT' | 'PERSISTED_QUERY_NOT_FOUND';

/**
 * Why an operation cannot run, as the one refusal: a query that does not parse, validate or coerce
 * is the client's 400 with graphql-js's own errors (their messages and locations); a persisted id the
 * catalogue does not hold (or one `enforce` does not trust) is PERSISTED_QUERY_NOT_FOUND, which
 * Apollo Client's link answers by sending the text, and which it never caches.
 */
export function operationRefusal(code: RefusalCode, errors: readonly GraphQLError[] | string): ApiError {
  const graphqlErrors = typeof errors === 'string' ? [new GraphQLError(errors)] : errors;
  const message = graphqlErrors.map((e) => e.message).join('; ');
  if (code === 'PERSISTED_QUERY_NOT_FOUND') {
    // Kept in the catalogue and handed to every request that sends the same text: its headers are frozen.
    return new ApiError(404, message, Object.freeze({ 'Cache-Control': 'private, no-cache, must-revalidate' }), { code, errors: graphqlErrors });
  }
  return new ApiError(400, message, Object.freeze({}), { code, errors: graphqlErrors });
}

export const operationId = (text: string): string => createHash('sha256').update(text).digest('hex');

export interface PrepareRules {
  schema: GraphQLSchema;
  fields: FieldRequirements;
  /** graphql-js's rules and the guards' (depth, aliases, cost). */
  validationRules: readonly ValidationRule[];
  maxTokens: number;
}

/** The rules for `schema`: graphql-js's own validation rules, then `extra` (the guards), and the token cap. */
export function prepareRules(schema: GraphQLSchema, extra: readonly ValidationRule[], maxTokens: number): PrepareRules {
  return { schema, fields: collectFieldRequirements(schema), validationRules: [...specifiedRules, ...extra], maxTokens };
}

/** A text parsed within the token cap, or graphql-js's syntax error. */
export function parseDocument(rules: PrepareRules, text: string): DocumentNode | ApiError {
  try {
    return parse(text, { maxTokens: rules.maxTokens });
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    return operationRefusal('BAD_USER_INPUT', [error]);
  }
}

/** A text parsed and validated, or graphql-js's errors. */
export function parseAndValidate(rules: PrepareRules, text: string): DocumentNode | ApiError {
  const document = parseDocument(rules, text);
  if (document instanceof ApiError) return document;
  const errors = validate(rules.schema, document, rules.validationRules);
  return errors.length > 0 ? operationRefusal('BAD_USER_INPUT', errors) : document;
}

function selectOperation(document: DocumentNode, name: string | undefined): OperationDefinitionNode | ApiError {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (name === undefined) {
    if (operations.length === 1) return operations[0]!;
    return operationRefusal('BAD_USER_INPUT', 'Must provide operation name if query contains multiple operations.');
  }
  return operations.find((o) => o.name?.value === name) ?? operationRefusal('BAD_USER_INPUT', `Unknown operation named "${name}".`);
}

/** `query assetMarkets, viewer`: what an operation without a name reads, for people (usage records, the dashboard). */
function unnamedOperationName(operation: OperationDefinitionNode): string {
  const fields = [
    ...new Set(operation.selectionSet.selections.map((s) => (s.kind === 'Field' ? s.name.value : s.kind === 'InlineFragment' ? '...' : `...${s.name.value}`))),
  ];
  const shown = fields.slice(0, 3).join(', ');
  return `${operation.operation} ${shown}${fields.length > 3 ? ` and ${fields.length - 3} more` : ''}`;
}

export function prepareOperation(rules: PrepareRules, text: string, operationName: string | undefined): PreparedOperation | ApiError {
  const document = parseAndValidate(rules, text);
  if (document instanceof ApiError) return document;
  const operation = selectOperation(document, operationName);
  if (operation instanceof ApiError) return operation;
  const analysis = analyzeOperation(rules.schema, rules.fields, document, operation);
  // Introspection has its own rules (no key outside production, off in production): Apollo runs it, as mutations.
  const runsCompiled = operation.operation === 'query' && analysis.readsData && !analysis.readsIntrospection;
  const prepared: PreparedOperation = {
    id: operationId(text),
    text,
    document,
    operation,
    name: operation.name?.value ?? unnamedOperationName(operation),
    kind: operation.operation,
    analysis,
    runsCompiled,
  };
  const answers = runsCompiled ? answerVersioningOf(analysis) : undefined;
  if (answers) prepared.answers = answers;
  return prepared;
}
