/**
 * `documents load|list`: the trusted documents, the GraphQL operations this deployment's
 * own clients send, from the manifest their build writes. A manifest is checked whole, its format,
 * hashes and every document against the schema, before anything is stored, and replaces the one before.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import type { TrustedDocument } from '../domain/trusted-documents.js';
import { withStore } from './context.js';
import { CliError, describeError } from './errors.js';
import { isoOrNull, printJson, printLines, printTable } from './output.js';

export function registerDocuments(program: Command): void {
  const documents = program.command('documents').description('manage the trusted documents: the GraphQL operations your own clients send');

  documents
    .command('load')
    .description(
      "replace the trusted documents with a manifest, Apollo's persisted-query manifest or graphql-codegen's persisted-documents.json; " +
        'every document must validate against the schema, or nothing is loaded',
    )
    .argument('<file>', 'the manifest (JSON)')
    .option('--json', 'print one JSON object')
    .action(async (file: string, options: { json?: boolean }) => loadDocuments(file, options));

  documents
    .command('list')
    .description('list the trusted documents (not their text)')
    .option('--json', 'print a JSON array')
    .action(async (options: { json?: boolean }) => listDocuments(options));
}

const plural = (n: number) => `${n} trusted document${n === 1 ? '' : 's'}`;

/** The file's JSON; a file that cannot be read or is not JSON is one line, never a stack. */
function readJson(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : describeError(error);
    throw new CliError(`cannot read ${file}: ${why}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    // V8 quotes the text around the mistake, line breaks included: kept to one line.
    throw new CliError(`${file} is not JSON: ${describeError(error).replace(/\s+/g, ' ')}`);
  }
}

/** The manifest's documents, each valid against the schema; otherwise the refusal names what is wrong. */
async function readManifest(file: string): Promise<TrustedDocument[]> {
  const json = readJson(file);
  const [{ checkAgainstSchema, documentLabel, parseTrustedManifest }, { createSchema }, { DomainError }] = await Promise.all([
    import('../graphql/catalogue/manifest.js'),
    import('../graphql/schema.js'),
    import('../domain/errors.js'),
  ]);
  let documents: TrustedDocument[];
  try {
    documents = parseTrustedManifest(json);
  } catch (error) {
    throw error instanceof DomainError ? new CliError(`${file}: ${error.message}`) : error;
  }
  const problems = checkAgainstSchema(createSchema(), documents);
  if (problems.length > 0) {
    throw new CliError(
      [
        `${file}: ${problems.length} of ${plural(documents.length)} do not validate against the schema; nothing was loaded:`,
        ...problems.map((p) => `  ${documentLabel(p)}: ${p.messages.join('; ')}`),
      ].join('\n'),
    );
  }
  return documents;
}

async function loadDocuments(file: string, options: { json?: boolean }): Promise<void> {
  const documents = await readManifest(file);
  const load = await withStore((store) => store.trustedDocuments.replaceAll(documents, Date.now()));
  if (options.json) {
    printJson({ loaded: load.count, replaced: load.replaced, version: load.version });
    return;
  }
  printLines(`Loaded ${plural(load.count)} from ${file} (replacing ${load.replaced}); manifest version ${load.version}.`);
}

async function listDocuments(options: { json?: boolean }): Promise<void> {
  const { documents, version } = await withStore(async (store) => ({
    documents: await store.trustedDocuments.list(),
    version: await store.trustedDocuments.version(),
  }));
  if (options.json) {
    printJson(documents.map((d) => ({ id: d.id, name: d.name, type: d.type, loaded_at: isoOrNull(d.loadedAt) })));
    return;
  }
  if (documents.length === 0) {
    printLines('No trusted documents (load a manifest with: documents load <file>).');
    return;
  }
  printTable(
    ['ID', 'NAME', 'TYPE'],
    documents.map((d) => [d.id, d.name ?? '-', d.type ?? '-']),
  );
  printLines('', `${plural(documents.length)}, loaded ${isoOrNull(documents[0]!.loadedAt)} (manifest version ${version}).`);
}
