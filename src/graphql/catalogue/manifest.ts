/**
 * Trusted-document manifests: the two files client tooling writes of the operations an
 * app sends, read into one list keyed by SHA-256 and checked against the schema. A manifest is taken
 * whole or not at all, so a mistake in it can never leave a deployment trusting half an app.
 */
import { type DocumentNode, type GraphQLSchema, Kind } from 'graphql';
import { z } from 'zod';
import { invalid } from '../../domain/errors.js';
import { documentIdOf, OPERATION_TYPES, type TrustedDocument } from '../../domain/trusted-documents.js';
import { GRAPHQL_LIMITS, guardRules } from './guards.js';
import { ApiError } from '../../domain/refusal.js';
import { operationId, parseAndValidate, parseDocument, type PrepareRules, prepareRules } from './prepare.js';

const APOLLO_FORMAT = 'apollo-persisted-query-manifest';
const ACCEPTED =
  `the accepted formats are Apollo's persisted-query manifest ({"format": "${APOLLO_FORMAT}", "version": 1, "operations": [...]}) ` +
  `and graphql-codegen's persisted-documents.json ({"<sha256 hash>": "<document>"})`;

/** `@apollo/generate-persisted-query-manifest`: the id is the SHA-256 of the body. */
const apolloManifest = z.object({
  format: z.literal(APOLLO_FORMAT),
  version: z.literal(1),
  operations: z.array(z.object({ id: z.string(), name: z.string(), type: z.enum(OPERATION_TYPES), body: z.string().min(1) })),
});

/** graphql-codegen's client preset (`persistedDocuments`): hash to text, the hash `sha256:<hex>` (client-preset 6) or bare hex (older, or a custom hash). */
const codegenManifest = z.record(z.string(), z.string().min(1));

/** A document as the manifest states it, with the words that name it in a refusal. */
interface Entry {
  label: string;
  statedId: string;
  document: TrustedDocument;
}

/** How a document is named to an operator: its operation's name where known, and the start of its hash. */
export function documentLabel(document: { id: string; name?: string | undefined }): string {
  return document.name ? `${document.name} (${document.id.slice(0, 12)})` : document.id.slice(0, 12);
}

function withName(id: string, body: string, name?: string, type?: TrustedDocument['type']): TrustedDocument {
  return { id, body, ...(name ? { name } : {}), ...(type ? { type } : {}) };
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = (issue?.path ?? []).map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  return `${where.replace(/^\./, '') || 'manifest'}: ${issue?.message ?? 'invalid'}`;
}

function apolloEntries(json: Record<string, unknown>): Entry[] {
  if (json.format !== APOLLO_FORMAT) throw invalid(`unknown manifest format ${JSON.stringify(json.format)}: ${ACCEPTED}`);
  if (json.version !== 1) throw invalid(`Apollo persisted-query manifest version ${JSON.stringify(json.version)} is not supported (version 1 is)`);
  const parsed = apolloManifest.safeParse(json);
  if (!parsed.success) throw invalid(`invalid Apollo persisted-query manifest at ${firstIssue(parsed.error)}`);
  return parsed.data.operations.map((op, i) => ({
    label: `operation ${JSON.stringify(op.name)} (operations[${i}])`,
    statedId: op.id,
    document: withName(op.id, op.body, op.name, op.type),
  }));
}

function codegenEntries(json: Record<string, unknown>): Entry[] {
  const parsed = codegenManifest.safeParse(json);
  if (!parsed.success) throw invalid(`invalid graphql-codegen persisted-documents.json at ${firstIssue(parsed.error)}`);
  return Object.entries(parsed.data).map(([key, body]) => ({
    label: `entry ${JSON.stringify(key)}`,
    statedId: key,
    document: withName(documentIdOf(key), body),
  }));
}

function entriesOf(json: unknown): Entry[] {
  const isObject = typeof json === 'object' && json !== null && !Array.isArray(json);
  if (isObject && 'format' in json) return apolloEntries(json as Record<string, unknown>);
  if (isObject && Object.values(json).every((v) => typeof v === 'string')) return codegenEntries(json as Record<string, unknown>);
  throw invalid(`not a trusted-document manifest: ${ACCEPTED}`);
}

/** Refuses an entry whose id is not the SHA-256 of its text: a client sending that id would never match it. */
function checkHash({ label, statedId, document }: Entry): void {
  const expected = operationId(document.body);
  if (document.id === expected) return;
  const sha1 = /^[0-9a-f]{40}$/i.test(document.id) ? `; it looks like SHA-1: set graphql-codegen's persistedDocuments.hashAlgorithm to 'sha256'` : '';
  throw invalid(
    `${label}: ${JSON.stringify(statedId)} is not the lowercase hex SHA-256 of its document (that is ${expected})${sha1}; the whole manifest is refused`,
  );
}

/**
 * The documents of a manifest in either format (JSON already parsed), once each. The whole manifest
 * is refused, with a message naming the entry, when it is empty, of another format, or when an
 * entry's id is not the SHA-256 of its text or repeats another entry's id with another name or type.
 */
export function parseTrustedManifest(json: unknown): TrustedDocument[] {
  const entries = entriesOf(json);
  if (entries.length === 0) throw invalid('the manifest lists no documents');
  const byId = new Map<string, Entry>();
  for (const entry of entries) {
    checkHash(entry);
    const seen = byId.get(entry.document.id);
    if (!seen) byId.set(entry.document.id, entry);
    else if (seen.document.name !== entry.document.name || seen.document.type !== entry.document.type) {
      throw invalid(`${entry.label} repeats the document of ${seen.label} under another name or type; the whole manifest is refused`);
    }
  }
  return [...byId.values()].map((e) => e.document);
}

/** A document the schema refuses, with each reason (a syntax error, an unknown field, ...). */
export interface DocumentProblem {
  id: string;
  /** The operation's name: the manifest's, else the ones its text defines. */
  name?: string;
  messages: string[];
}

/** The names of the operations a document defines (graphql-codegen's manifests name none). */
function operationNames(document: DocumentNode): string | undefined {
  const names = document.definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION && d.name ? [d.name.value] : []));
  return names.length > 0 ? names.join(', ') : undefined;
}

function problemOf(rules: PrepareRules, d: TrustedDocument): DocumentProblem | undefined {
  const checked = parseAndValidate(rules, d.body);
  if (!(checked instanceof ApiError)) return undefined;
  // A text that parses but does not validate is named by its operations where the manifest names none.
  const parsed = d.name ? undefined : parseDocument(rules, d.body);
  const name = d.name ?? (parsed && !(parsed instanceof ApiError) ? operationNames(parsed) : undefined);
  return { id: d.id, ...(name ? { name } : {}), messages: (checked.graphql?.errors ?? [checked]).map((e) => e.message) };
}

/**
 * The documents that would not run: that do not parse or validate against `schema` with the rules
 * every request meets (the guards' limits too), each named by its operation (the manifest's name,
 * else the names in its text); empty when every one would.
 */
export function checkAgainstSchema(schema: GraphQLSchema, documents: readonly TrustedDocument[]): DocumentProblem[] {
  const rules = prepareRules(schema, guardRules(), GRAPHQL_LIMITS.maxTokens);
  return documents.flatMap((d) => problemOf(rules, d) ?? []);
}
