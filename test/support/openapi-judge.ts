/**
 * An outside judge for the REST facades: every answer a suite receives under /api/v1 is checked
 * against the OpenAPI document the listener serves. The document itself is checked against the
 * OpenAPI 3.1 schema (@seriousme/openapi-schema-validator); each answer's status must be declared
 * for its operation, and its body and declared headers must validate with Ajv (JSON Schema 2020-12,
 * which OpenAPI 3.1 uses as is).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type supertest from 'supertest';

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON, its shape checked by the validators.
type Json = Record<string, any>;

interface Answer {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

// ajv-formats is CommonJS: its default export arrives as the module under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

/** Ajv as the judge uses it: JSON Schema 2020-12 (OpenAPI 3.1's), with formats. */
export function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}

/** Records every answer of `listener` (a supertest agent) for `judge()`. */
export function recordAnswers(listener: supertest.Agent): Answer[] {
  const answers: Answer[] = [];
  type Request = {
    method: string;
    url: string;
    on(event: 'response', listener: (res: { status: number; headers: Record<string, string>; body: unknown }) => void): void;
  };
  (listener as unknown as { use(plugin: (req: Request) => void): void }).use((req) => {
    req.on('response', (res) => {
      answers.push({ method: req.method, url: req.url, status: res.status, headers: res.headers, body: res.body });
    });
  });
  return answers;
}

const pointerSegment = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** The problems found: the document's, then each answer's (empty when everything conforms). */
export async function judge(listener: supertest.Agent, answers: readonly Answer[]): Promise<{ problems: string[]; judged: number }> {
  const document = (await listener.get('/api/v1/openapi.json')).body as Json;
  const problems: string[] = [];
  const meta = await new Validator().validate(structuredClone(document));
  if (!meta.valid) problems.push(`the document is not valid OpenAPI 3.1: ${JSON.stringify(meta.errors)}`);

  const ajv = newAjv();
  ajv.addSchema(document, 'openapi.json');
  const deref = (node: Json): Json =>
    node?.$ref
      ? deref(
          (node.$ref as string)
            .slice(2)
            .split('/')
            .reduce((at: Json, key) => at[key], document),
        )
      : node;

  let judged = 0;
  for (const answer of answers) {
    const url = new URL(answer.url);
    const method = answer.method.toLowerCase();
    const operation = document.paths?.[url.pathname]?.[method];
    // Undocumented paths (a 404 for an unknown one) and methods (405) have no operation to judge by.
    if (!operation || url.pathname === '/api/v1/openapi.json') continue;
    judged++;
    const where = `${answer.method} ${url.pathname}${url.search} -> ${answer.status}`;
    const declared = operation.responses[String(answer.status)] ?? operation.responses.default;
    if (!declared) {
      problems.push(`${where}: status not declared (declared: ${Object.keys(operation.responses).join(', ')})`);
      continue;
    }
    const response = deref(declared);
    for (const [name, header] of Object.entries((response.headers ?? {}) as Json)) {
      const value = answer.headers[name.toLowerCase()];
      if (value === undefined) continue; // the rate-limit headers are absent for unlimited plans, as documented
      const schema = deref(header).schema as Json;
      const typed = schema?.type === 'integer' ? Number(value) : value;
      if (schema && !ajv.validate(schema, typed)) problems.push(`${where}: header ${name}=${value}: ${ajv.errorsText()}`);
    }
    const content = response.content?.['application/json'];
    if (!content) continue;
    if (method === 'head' || answer.status === 304) continue;
    if (!/application\/json/.test(answer.headers['content-type'] ?? '')) {
      problems.push(`${where}: content-type ${answer.headers['content-type']}, documented application/json`);
      continue;
    }
    const statusKey = operation.responses[String(answer.status)] ? String(answer.status) : 'default';
    const pointer = operation.responses[statusKey].$ref
      ? `openapi.json#/${(operation.responses[statusKey].$ref as string).slice(2)}/content/application~1json/schema`
      : `openapi.json#/paths/${pointerSegment(url.pathname)}/${method}/responses/${statusKey}/content/application~1json/schema`;
    const validate = ajv.getSchema(pointer);
    if (!validate) problems.push(`${where}: no schema at ${pointer}`);
    else if (!validate(answer.body)) problems.push(`${where}: body does not match the document: ${ajv.errorsText(validate.errors)}`);
  }
  return { problems, judged };
}

/**
 * Answers of the judging test's own, so that it judges something when run alone (`jest -t`): each
 * GET path the served document lists, with `key` and the path's `query` (from `queries`, by the
 * path's last segment, e.g. `/brief`), and without a key (401). Returns how many were sent.
 */
export async function sampleEveryPath(listener: supertest.Agent, key: string, queries: Record<string, string>): Promise<number> {
  const document = (await listener.get('/api/v1/openapi.json')).body as Json;
  let sent = 0;
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    if (!item.get || path.endsWith('openapi.json')) continue;
    const query = queries[path.slice(path.lastIndexOf('/'))] ?? '';
    await listener.get(`${path}${query}`).set('Authorization', `Bearer ${key}`);
    await listener.get(`${path}${query}`);
    sent += 2;
  }
  return sent;
}
