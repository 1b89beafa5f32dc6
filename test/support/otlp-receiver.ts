/**
 * A loopback OTLP/HTTP receiver for tests: accepts POST /v1/traces and /v1/metrics in either
 * encoding the exporters speak (http/protobuf, http/json) and keeps every span and metric point,
 * decoded to one shape. The protobuf is read by the field numbers of opentelemetry-proto's
 * trace.proto, metrics.proto, common.proto and the service protos (ExportTraceServiceRequest >
 * ResourceSpans > ScopeSpans > Span and its Links; ExportMetricsServiceRequest > ResourceMetrics >
 * ScopeMetrics > Metric > Sum | Histogram > data points; KeyValue, AnyValue). It can misbehave as a collector
 * does (`setMode`): stopped (connection refused), hung (reads the request, never answers) or
 * answering 500.
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

export interface ReceivedPoint {
  /** The metric's name, e.g. `http.server.request.duration`. */
  metric: string;
  unit: string;
  kind: 'sum' | 'gauge' | 'histogram';
  attributes: Record<string, string | number | boolean>;
  /** A sum's or gauge's value; a histogram's count. */
  value: number;
  /** A histogram's sum. */
  sum?: number;
}

const fixed64 = (b: bigint | Uint8Array | undefined) => (b instanceof Uint8Array ? Number(Buffer.from(b).readBigUInt64LE(0)) : Number(b ?? 0));
const double = (b: bigint | Uint8Array | undefined) => (b instanceof Uint8Array ? Buffer.from(b).readDoubleLE(0) : 0);

/** Metric: name 1, unit 3, gauge 5, sum 7, histogram 9; NumberDataPoint: attributes 7, as_double 4, as_int 6; HistogramDataPoint: attributes 9, count 4, sum 5. */
export function decodeMetricsProtobuf(body: Uint8Array): ReceivedPoint[] {
  const points: ReceivedPoint[] = [];
  const bytesOf = (b: bigint | Uint8Array | undefined) => (b instanceof Uint8Array ? b : new Uint8Array());
  for (const rm of fields(body).get(1) ?? [])
    for (const sm of fields(rm as Uint8Array).get(2) ?? [])
      for (const m of fields(sm as Uint8Array).get(2) ?? []) {
        const metric = fields(m as Uint8Array);
        const [name, unit] = [text(metric.get(1)?.[0]), text(metric.get(3)?.[0])];
        for (const [field, kind] of [
          [5, 'gauge'],
          [7, 'sum'],
        ] as const)
          for (const p of fields(bytesOf(metric.get(field)?.[0])).get(1) ?? []) {
            const point = fields(p as Uint8Array);
            const value = point.has(4) ? double(point.get(4)![0]) : fixed64(point.get(6)?.[0]);
            points.push({ metric: name, unit, kind, attributes: protoAttributes(point.get(7)), value });
          }
        for (const p of fields(bytesOf(metric.get(9)?.[0])).get(1) ?? []) {
          const point = fields(p as Uint8Array);
          points.push({
            metric: name,
            unit,
            kind: 'histogram',
            attributes: protoAttributes(point.get(9)),
            value: fixed64(point.get(4)?.[0]),
            sum: double(point.get(5)?.[0]),
          });
        }
      }
  return points;
}

export function decodeMetricsJson(body: string): ReceivedPoint[] {
  type Point = { attributes?: JsonKeyValue[]; asDouble?: number; asInt?: number | string; count?: number | string; sum?: number };
  type Metric = { name: string; unit?: string; sum?: { dataPoints?: Point[] }; gauge?: { dataPoints?: Point[] }; histogram?: { dataPoints?: Point[] } };
  type Json = { resourceMetrics?: { scopeMetrics?: { metrics?: Metric[] }[] }[] };
  const points: ReceivedPoint[] = [];
  for (const rm of (JSON.parse(body) as Json).resourceMetrics ?? [])
    for (const sm of rm.scopeMetrics ?? [])
      for (const m of sm.metrics ?? []) {
        const unit = m.unit ?? '';
        for (const kind of ['sum', 'gauge'] as const)
          for (const p of m[kind]?.dataPoints ?? [])
            points.push({ metric: m.name, unit, kind, attributes: jsonAttributes(p.attributes), value: Number(p.asDouble ?? p.asInt ?? 0) });
        for (const p of m.histogram?.dataPoints ?? [])
          points.push({
            metric: m.name,
            unit,
            kind: 'histogram',
            attributes: jsonAttributes(p.attributes),
            value: Number(p.count ?? 0),
            sum: Number(p.sum ?? 0),
          });
      }
  return points;
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

/** How the receiver answers: as a collector should, not at all (stopped), never (hung), or 500. */
export type ReceiverMode = 'ok' | 'stopped' | 'hung' | 'failing';

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** Metric points, each export's appended (they are cumulative: the latest of a series is its total). */
  points: ReceivedPoint[];
  /** The media types of the requests received. */
  contentTypes: string[];
  /** Requests read, by path, whatever the mode answered (a hung receiver counts what it holds). */
  requests: Record<string, number>;
  /** Resolves once `ok` holds for the spans received so far (polled). */
  until(ok: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  /** Resolves once `ok` holds for the metric points received so far (polled). */
  untilPoints(ok: (points: ReceivedPoint[]) => boolean, timeoutMs?: number): Promise<ReceivedPoint[]>;
  /** Changes how it answers; `stopped` closes the port (connection refused), any other mode opens it again. */
  setMode(mode: ReceiverMode): Promise<void>;
  close(): Promise<void>;
}

async function polled<T>(what: string, items: T[], ok: (items: T[]) => boolean, timeoutMs: number): Promise<T[]> {
  const end = Date.now() + timeoutMs;
  while (!ok(items)) {
    if (Date.now() > end) throw new Error(`${what} not received in time (${items.length} so far)`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return items;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const points: ReceivedPoint[] = [];
  const contentTypes: string[] = [];
  const requests: Record<string, number> = {};
  let mode: ReceiverMode = 'ok';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const type = req.headers['content-type'] ?? '';
      const path = req.url ?? '';
      if (req.method !== 'POST' || (path !== '/v1/traces' && path !== '/v1/metrics')) return void res.writeHead(404).end();
      requests[path] = (requests[path] ?? 0) + 1;
      if (mode === 'hung') return; // read, never answered: the exporter's own timeout must end it
      if (mode === 'failing') return void res.writeHead(500, { 'Content-Type': 'text/plain' }).end('collector failing');
      contentTypes.push(type);
      const json = type.includes('json');
      if (path === '/v1/traces') spans.push(...(json ? decodeJson(body.toString('utf8')) : decodeProtobuf(body)));
      else points.push(...(json ? decodeMetricsJson(body.toString('utf8')) : decodeMetricsProtobuf(body)));
      res.writeHead(200, { 'Content-Type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const shut = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    points,
    contentTypes,
    requests,
    until: (ok, timeoutMs = 10_000) => polled('spans', spans, ok, timeoutMs),
    untilPoints: (ok, timeoutMs = 10_000) => polled('metric points', points, ok, timeoutMs),
    async setMode(next) {
      mode = next;
      if (next === 'stopped') return shut();
      if (!server.listening) await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: shut,
  };
}
