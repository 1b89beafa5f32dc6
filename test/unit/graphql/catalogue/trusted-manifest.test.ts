/**
 * Trusted-document manifests: the two files client tools write (the fixtures are their real output)
 * read into one list keyed by SHA-256; anything else, or any entry whose id is not its text's hash,
 * refuses the whole manifest with a message naming the entry.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fc from 'fast-check';
import { checkAgainstSchema, parseTrustedManifest } from '../../../../src/graphql/catalogue/manifest.js';
import { createSchema } from '../../../../src/graphql/schema.js';

const fixture = (name: string): unknown => JSON.parse(fs.readFileSync(new URL(`../../../fixtures/trusted-documents/${name}`, import.meta.url), 'utf8'));
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const apollo = (operations: { id: string; name: string; type?: string; body: string }[]) => ({
  format: 'apollo-persisted-query-manifest',
  version: 1,
  operations: operations.map((op) => ({ type: 'query', ...op })),
});
const ACCEPTED = /Apollo's persisted-query manifest .* and graphql-codegen's persisted-documents\.json/;

/** Distinct non-empty document texts, with operation names. */
const documents = fc.uniqueArray(fc.record({ body: fc.string({ minLength: 1, unit: 'grapheme' }), name: fc.stringMatching(/^[A-Za-z_]\w{0,12}$/) }), {
  minLength: 1,
  maxLength: 8,
  selector: (d) => d.body,
});

describe('the two formats', () => {
  it("reads Apollo's manifest as @apollo/generate-persisted-query-manifest writes it", () => {
    const docs = parseTrustedManifest(fixture('apollo-persisted-query-manifest.json'));
    expect(docs.map((d) => [d.name, d.type])).toEqual([
      ['Markets', 'query'],
      ['Me', 'query'],
    ]);
    for (const d of docs) expect(d.id).toBe(sha256(d.body));
  });

  it("reads graphql-codegen's persisted-documents.json, its sha256: prefix taken off the id", () => {
    const json = fixture('persisted-documents.json') as Record<string, string>;
    const docs = parseTrustedManifest(json);
    expect(docs.map((d) => `sha256:${d.id}`)).toEqual(Object.keys(json));
    expect(docs.map((d) => d.body)).toEqual(Object.values(json));
    expect(docs.every((d) => d.name === undefined && d.type === undefined)).toBe(true);
    // Bare hex keys (older client presets, or a custom sha256 function) name the same documents.
    expect(parseTrustedManifest(Object.fromEntries(Object.entries(json).map(([k, v]) => [k.slice('sha256:'.length), v])))).toEqual(docs);
  });

  it('both fixtures validate against the schema', () => {
    const schema = createSchema();
    for (const name of ['apollo-persisted-query-manifest.json', 'persisted-documents.json']) {
      expect(checkAgainstSchema(schema, parseTrustedManifest(fixture(name)))).toEqual([]);
    }
  });

  it('any documents, written in either format, read back as the same documents', () => {
    fc.assert(
      fc.property(documents, fc.boolean(), (docs, prefixed) => {
        const fromApollo = parseTrustedManifest(apollo(docs.map((d) => ({ id: sha256(d.body), name: d.name, body: d.body }))));
        const fromCodegen = parseTrustedManifest(Object.fromEntries(docs.map((d) => [`${prefixed ? 'sha256:' : ''}${sha256(d.body)}`, d.body])));
        expect(fromApollo).toEqual(docs.map((d) => ({ id: sha256(d.body), body: d.body, name: d.name, type: 'query' })));
        expect(fromCodegen).toEqual(docs.map((d) => ({ id: sha256(d.body), body: d.body })));
      }),
    );
  });
});

describe('refusals', () => {
  it('an entry whose id is not the SHA-256 of its text refuses the whole manifest, naming the entry', () => {
    fc.assert(
      fc.property(documents, fc.nat(), fc.string({ minLength: 1 }), (docs, pick, extra) => {
        const bad = pick % docs.length;
        const ops = docs.map((d, i) => ({ id: sha256(d.body), name: d.name, body: i === bad ? d.body + extra : d.body }));
        expect(() => parseTrustedManifest(apollo(ops))).toThrow(`operation ${JSON.stringify(docs[bad]!.name)} (operations[${bad}])`);
        const key = `sha256:${ops[bad]!.id}`;
        const codegen = Object.fromEntries(ops.map((op, i) => [i === bad ? key : op.id, op.body]));
        expect(() => parseTrustedManifest(codegen)).toThrow(`entry ${JSON.stringify(key)}: ${JSON.stringify(key)} is not the lowercase hex SHA-256`);
      }),
    );
  });

  it('says so when the hash is SHA-1 or upper case', () => {
    const body = 'query Me { viewer { accountId } }';
    const sha1 = createHash('sha1').update(body).digest('hex');
    expect(() => parseTrustedManifest({ [sha1]: body })).toThrow(/looks like SHA-1: set graphql-codegen's persistedDocuments.hashAlgorithm to 'sha256'/);
    expect(() => parseTrustedManifest({ [sha256(body).toUpperCase()]: body })).toThrow(`(that is ${sha256(body)})`);
  });

  it('takes a repeated document once, and refuses one repeated under another name or type', () => {
    const body = 'query Me { viewer { accountId } }';
    const op = { id: sha256(body), name: 'Me', body };
    expect(parseTrustedManifest(apollo([op, op]))).toEqual([{ ...op, type: 'query' }]);
    expect(parseTrustedManifest({ [op.id]: body, [`sha256:${op.id}`]: body })).toEqual([{ id: op.id, body }]);
    expect(() => parseTrustedManifest(apollo([op, { ...op, name: 'Viewer' }]))).toThrow(
      'operation "Viewer" (operations[1]) repeats the document of operation "Me" (operations[0]) under another name or type',
    );
    expect(() => parseTrustedManifest(apollo([op, { ...op, type: 'mutation' }]))).toThrow(/repeats the document/);
  });

  it('refuses empty manifests', () => {
    expect(() => parseTrustedManifest({})).toThrow('the manifest lists no documents');
    expect(() => parseTrustedManifest(apollo([]))).toThrow('the manifest lists no documents');
  });

  it('refuses anything else, saying which two formats are accepted', () => {
    const notAManifest = fc.oneof(
      fc.oneof(fc.string(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.anything())),
      // An object with a value that is no document text, and no "format".
      fc
        .dictionary(
          fc.string().filter((k) => k !== 'format'),
          fc.anything(),
          { minKeys: 1 },
        )
        .filter((o) => Object.values(o).some((v) => typeof v !== 'string')),
    );
    fc.assert(
      fc.property(notAManifest, (json) => {
        expect(() => parseTrustedManifest(json)).toThrow(ACCEPTED);
      }),
    );
    expect(() => parseTrustedManifest({ format: 'relay-persisted-queries', operations: [] })).toThrow(
      /^unknown manifest format "relay-persisted-queries": the accepted/,
    );
    expect(() => parseTrustedManifest({ format: 'relay-persisted-queries', operations: [] })).toThrow(ACCEPTED);
  });

  it("refuses another version or a malformed operation of Apollo's format, saying where", () => {
    const body = 'query Me { viewer { accountId } }';
    expect(() => parseTrustedManifest({ ...apollo([]), version: 2 })).toThrow('Apollo persisted-query manifest version 2 is not supported (version 1 is)');
    expect(() => parseTrustedManifest(apollo([{ id: sha256(body), name: 'Me', body, type: 'fetch' }]))).toThrow(
      /invalid Apollo persisted-query manifest at operations\[0\]\.type: /,
    );
    expect(() => parseTrustedManifest({ format: 'apollo-persisted-query-manifest', version: 1 })).toThrow(/at operations: /);
    expect(() => parseTrustedManifest({ [sha256('')]: '' })).toThrow(/invalid graphql-codegen persisted-documents\.json at [0-9a-f]{64}: /);
  });
});

describe('checkAgainstSchema', () => {
  it('names each document that does not parse or validate by its operation, with every reason', () => {
    const valid = 'query Me { viewer { accountId } }';
    const unknownField = 'query Bad { viewer { accountId nope } assetMarkets { nope } }';
    const syntax = 'query Broken { viewer {';
    const docs = parseTrustedManifest(apollo([valid, unknownField, syntax].map((body) => ({ id: sha256(body), name: /query (\w+)/.exec(body)![1]!, body }))));
    expect(checkAgainstSchema(createSchema(), docs)).toEqual([
      { id: sha256(unknownField), name: 'Bad', messages: [expect.stringMatching(/"nope" on type "Viewer"/), expect.stringMatching(/"nope" on type/)] },
      { id: sha256(syntax), name: 'Broken', messages: [expect.stringMatching(/^Syntax Error/)] },
    ]);
    // graphql-codegen's manifests name nothing: the operation's name comes from its text, where it parses.
    expect(
      checkAgainstSchema(createSchema(), [
        { id: sha256(syntax), body: syntax },
        { id: sha256(unknownField), body: unknownField },
      ]),
    ).toEqual([
      { id: sha256(syntax), messages: [expect.any(String)] },
      { id: sha256(unknownField), name: 'Bad', messages: [expect.any(String), expect.any(String)] },
    ]);
  });

  it("checks with the rules every request meets: a document over the guards' limits would never run, so it is refused at load", () => {
    const aliased = (n: number) => `query Many { ${Array.from({ length: n }, (_, i) => `a${i}: viewer { name }`).join(' ')} }`;
    expect(checkAgainstSchema(createSchema(), [{ id: sha256(aliased(15)), body: aliased(15) }])).toEqual([]);
    expect(checkAgainstSchema(createSchema(), [{ id: sha256(aliased(16)), body: aliased(16) }])).toEqual([
      { id: sha256(aliased(16)), name: 'Many', messages: [expect.stringMatching(/Aliases limit of 15 exceeded/)] },
    ]);
  });
});
