/**
 * A loopback OTLP/HTTP receiver for tests: accepts POST /v1/traces in either encoding the exporter
 * speaks (http/protobuf, http/json) and keeps every span, decoded to one shape. The protobuf is read
 * by the field numbers of opentelemetry-proto's trace.proto, common.proto and trace_service.proto
 * (ExportTraceServiceRequest > ResourceSpans > ScopeSpans > Span and its Links, KeyValue, AnyValue).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
  /** The spans it links to (another trace's, usually): what caused it. */
  links: { traceId: string; spanId: string }[];
}

/** A protobuf message as its fields: number -> values (varints as bigint, length-delimited as bytes). */
function fields(bytes: Uint8Array): Map<number, (bigint | Uint8Array)[]> {
  const out = new Map<number, (bigint | Uint8Array)[]>();
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    let shift = 0n;
    for (;;) {
      const byte = bytes[at++]!;
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
      shift += 7n;
    }
  };
  while (at < bytes.length) {
    const tag = Number(varint());
    const [field, wire] = [tag >>> 3, tag & 7];
    let value: bigint | Uint8Array;
    if (wire === 0) value = varint();
    else if (wire === 1) {
      value = bytes.slice(at, at + 8);
      at += 8;
    } else if (wire === 2) {
      const length = Number(varint());
      value = bytes.slice(at, at + length);
      at += length;
    } else if (wire === 5) {
      value = bytes.slice(at, at + 4);
      at += 4;
    } else throw new Error(`wire type ${wire} not expected in OTLP`);
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}

const text = (b: bigint | Uint8Array | undefined) => (b instanceof Uint8Array ? Buffer.from(b).toString('utf8') : '');
const hex = (b: bigint | Uint8Array | undefined) => (b instanceof Uint8Array ? Buffer.from(b).toString('hex') : '');

/** KeyValue (key 1, value 2: AnyValue with string 1, bool 2, int 3, double 4). */
function protoAttributes(list: (bigint | Uint8Array)[] = []): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const kv of list) {
    const pair = fields(kv as Uint8Array);
    const value = fields((pair.get(2)?.[0] as Uint8Array) ?? new Uint8Array());
    const key = text(pair.get(1)?.[0]);
    if (value.has(1)) out[key] = text(value.get(1)![0]);
    else if (value.has(2)) out[key] = value.get(2)![0] === 1n;
    else if (value.has(3)) out[key] = Number(value.get(3)![0]);
    else if (value.has(4)) out[key] = Buffer.from(value.get(4)![0] as Uint8Array).readDoubleLE(0);
  }
  return out;
}

/** The span and its ancestors, nearest first, as far as the spans received reach. */
export function ancestry(spans: ReceivedSpan[], span: ReceivedSpan): ReceivedSpan[] {
  const chain = [span];
  for (let at = span; at.parentSpanId; ) {
    const parent = spans.find((s) => s.spanId === at.parentSpanId);
    if (!parent) break;
    chain.push(parent);
    at = parent;
  }
  return chain;
}

export function decodeProtobuf(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const rs of fields(body).get(1) ?? []) {
    const resourceSpans = fields(rs as Uint8Array);
    const resource = protoAttributes(fields((resourceSpans.get(1)?.[0] as Uint8Array) ?? new Uint8Array()).get(1));
    for (const ss of resourceSpans.get(2) ?? []) {
      for (const s of fields(ss as Uint8Array).get(2) ?? []) {
        const span = fields(s as Uint8Array);
        spans.push({
          traceId: hex(span.get(1)?.[0]),
          spanId: hex(span.get(2)?.[0]),
          parentSpanId: hex(span.get(4)?.[0]),
          name: text(span.get(5)?.[0]),
          kind: Number(span.get(6)?.[0] ?? 0),
          attributes: protoAttributes(span.get(9)),
          resource,
          // Span.links (13): Link with trace_id 1 and span_id 2.
          links: (span.get(13) ?? []).map((l) => {
            const link = fields(l as Uint8Array);
            return { traceId: hex(link.get(1)?.[0]), spanId: hex(link.get(2)?.[0]) };
          }),
        });
      }
    }
  }
  return spans;
}

interface JsonKeyValue {
  key: string;
  value: { stringValue?: string; boolValue?: boolean; intValue?: number | string; doubleValue?: number };
}
const jsonAttributes = (list: JsonKeyValue[] = []) =>
  Object.fromEntries(
    list.map(({ key, value }) => [
      key,
      value.stringValue ?? value.boolValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? '')),
    ]),
  );

export function decodeJson(body: string): ReceivedSpan[] {
  type Json = { resourceSpans?: { resource?: { attributes?: JsonKeyValue[] }; scopeSpans?: { spans?: Record<string, unknown>[] }[] }[] };
  const spans: ReceivedSpan[] = [];
  for (const rs of (JSON.parse(body) as Json).resourceSpans ?? []) {
    const resource = jsonAttributes(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? [])
        spans.push({
          traceId: String(s.traceId ?? ''),
          spanId: String(s.spanId ?? ''),
          parentSpanId: String(s.parentSpanId ?? ''),
          name: String(s.name),
          kind: Number(s.kind ?? 0),
          attributes: jsonAttributes(s.attributes as JsonKeyValue[]),
          resource,
          links: ((s.links as { traceId?: string; spanId?: string }[] | undefined) ?? []).map((l) => ({
            traceId: String(l.traceId ?? ''),
            spanId: String(l.spanId ?? ''),
          })),
        });
  }
  return spans;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** The media types of the requests received. */
  contentTypes: string[];
  /** Resolves once `ok` holds for the spans received so far (polled). */
  until(ok: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const type = req.headers['content-type'] ?? '';
      if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
      contentTypes.push(type);
      spans.push(...(type.includes('json') ? decodeJson(body.toString('utf8')) : decodeProtobuf(body)));
      res.writeHead(200, { 'Content-Type': type.includes('json') ? 'application/json' : 'application/x-protobuf' });
      res.end(type.includes('json') ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    contentTypes,
    async until(ok, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      while (!ok(spans)) {
        if (Date.now() > end) throw new Error(`spans not received in time: ${spans.map((s) => s.name).join(', ')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return spans;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
