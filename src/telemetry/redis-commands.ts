/**
 * Redis commands as client spans of the request or background span that sends them, named and
 * attributed by the semantic conventions: the command's name and the server, never its arguments
 * (keys name accounts; values are counts and receipts). One wrapper on the client at its creation,
 * free when tracing is off: one variable read per command, then ioredis as it is.
 */
import type { Command, Redis } from 'ioredis';
import { activeTracing } from './tracing.js';
import type { Attributes, SpanHandle } from './types.js';

type Send = Redis['sendCommand'];
type Exec = (callback?: unknown) => Promise<unknown>;
interface Batch {
  exec: Exec;
  /** ioredis keeps a pipeline's commands here (untyped): their names, for the batch's span. */
  _queue?: readonly Command[];
}

/** The connection's server, as the semantic conventions name it (a socket path has no port). */
function serverOf(redis: Redis): Attributes {
  const options = redis.options as { path?: string; host?: string; port?: number };
  if (options.path) return { 'server.address': options.path };
  return { 'server.address': options.host ?? 'localhost', 'server.port': options.port ?? 6379 };
}

/**
 * A failed command's class: the server's error prefix (`ERR`, `NOSCRIPT`), a timeout, or no
 * connection; never the message, which may quote an argument.
 */
export function redisErrorType(error: unknown): string {
  const { name, message } = error instanceof Error ? error : { name: '', message: '' };
  if (name === 'ReplyError') return /^[A-Z]+/.exec(message)?.[0] ?? 'ERR';
  if (/timed out/i.test(message)) return 'timeout';
  if (/closed|writeable|writable/i.test(message)) return 'not_connected';
  return '_OTHER';
}

/** Runs `work`, and marks the span failed with the error's class if it throws. */
async function traced<T>(span: SpanHandle | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const type = redisErrorType(error);
    span?.set({ 'error.type': type });
    span?.fail(type);
    throw error;
  }
}

/** The returned promise may be dropped by ioredis itself (a resend): its rejection is the caller's to see, never unhandled. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/** One command, one span: `GET`, `EVALSHA`, named as it went on the wire (a script's first send is `EVAL`). */
function traceCommands(redis: Redis, server: Attributes): void {
  const send: Send = redis.sendCommand.bind(redis);
  // A command may pass here again (a resend after a reconnect): it has its span already.
  const seen = new WeakSet<Command>();
  redis.sendCommand = (command, stream) => {
    const on = activeTracing;
    // A pipeline's commands come with its stream: the pipeline's span covers them.
    if (!on || stream || seen.has(command)) return send(command, stream);
    seen.add(command);
    const operation = command.name.toUpperCase();
    const attributes = { 'db.system': 'redis', 'db.system.name': 'redis', 'db.operation.name': operation, ...server };
    return quiet(
      on.command(operation, attributes, (span) =>
        traced(span, () => {
          const sent = send(command, stream) as Promise<unknown>;
          const wire = command.name.toUpperCase();
          if (wire !== operation) {
            span?.rename(wire);
            span?.set({ 'db.operation.name': wire });
          }
          return sent;
        }),
      ),
    );
  };
}

/** A pipeline or a transaction, one span when executed: `PIPELINE` or `MULTI`, its commands' names in `mgw.redis.commands`. */
function traceBatch<P extends Batch>(batch: P, kind: 'PIPELINE' | 'MULTI', server: Attributes): P {
  const exec = batch.exec;
  batch.exec = function (this: Batch, callback?: unknown) {
    const on = activeTracing;
    if (!on) return exec.call(this, callback);
    const names = (this._queue ?? []).map((c) => c.name.toUpperCase()).filter((name) => kind !== 'MULTI' || (name !== 'MULTI' && name !== 'EXEC'));
    const attributes = {
      'db.system': 'redis',
      'db.system.name': 'redis',
      'db.operation.name': kind,
      'db.operation.batch.size': names.length,
      'mgw.redis.commands': [...new Set(names)].join(' '),
      ...server,
    };
    return quiet(on.command(kind, attributes, (span) => traced(span, () => exec.call(this, callback))));
  };
  return batch;
}

/** Traces what `redis` sends from now on (when tracing is on); returns it. */
export function traceRedisCommands(redis: Redis): Redis {
  const server = serverOf(redis);
  traceCommands(redis, server);
  const { pipeline, multi } = redis;
  redis.pipeline = function (this: Redis, ...args: Parameters<Redis['pipeline']>) {
    return traceBatch(pipeline.apply(this, args) as unknown as Batch, 'PIPELINE', server) as unknown as ReturnType<Redis['pipeline']>;
  } as Redis['pipeline'];
  redis.multi = function (this: Redis, ...args: unknown[]) {
    const made = (multi as (...a: unknown[]) => unknown).apply(this, args);
    // `multi({ pipeline: false })` sends MULTI at once and answers a promise: its commands have their own spans.
    return made instanceof Promise ? made : traceBatch(made as Batch, 'MULTI', server);
  } as Redis['multi'];
  return redis;
}
