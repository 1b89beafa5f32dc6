/**
 * The service's listeners, bound before anything else starts: a taken port stops start-up with one
 * clear line before the store is opened, so a second `npm start` by mistake changes nothing. A
 * request that arrives while the service is still starting waits for it (the app is attached once
 * ready) instead of being refused.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Variant } from '../domain/variant.js';
import { type ConnectionLimits, createHttpServer, type DrainableServer, type GatewayApp } from './http-server.js';

interface ListenerSpec {
  variant: Variant;
  port: number;
  host: string;
  /** The setting that chose the port, named in errors (`MARKET_DATA_PORT`). */
  setting: string;
  limits?: ConnectionLimits;
}

export class ListenError extends Error {
  override name = 'ListenError';
}

interface BoundListener {
  server: DrainableServer;
  port: number;
  /** Starts answering with the app; requests that came in meanwhile are answered by it too. */
  attach(app: GatewayApp): void;
}

function bindOne(spec: ListenerSpec): Promise<BoundListener> {
  let app: GatewayApp | undefined;
  const waiting: [IncomingMessage, ServerResponse][] = [];
  const handler: GatewayApp = Object.assign((req: IncomingMessage, res: ServerResponse) => (app ? app(req, res) : void waiting.push([req, res])), {
    // Before the app is attached there is nothing to upgrade to: the client retries.
    upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => (app?.upgrade ? app.upgrade(req, socket, head) : void socket.destroy()),
    closeUpgraded: () => app?.closeUpgraded?.() ?? Promise.resolve(),
  });
  const server = createHttpServer(handler, spec.variant, spec.limits);
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'EADDRINUSE'
          ? 'is already in use'
          : error.code === 'EACCES'
            ? 'needs privileges this process lacks'
            : `cannot be bound (${error.code ?? error.message})`;
      reject(new ListenError(`${spec.setting}: port ${spec.port} on ${spec.host} ${why}`));
    });
    server.listen(spec.port, spec.host, () =>
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        attach(ready) {
          app = ready;
          for (const [req, res] of waiting.splice(0)) ready(req, res);
        },
      }),
    );
  });
}

/** Binds every listener or none: on a failure the ones already bound are closed, and the error names the setting. */
export async function bindListeners(specs: readonly ListenerSpec[]): Promise<BoundListener[]> {
  const outcomes = await Promise.allSettled(specs.map(bindOne));
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (!failed) return outcomes.map((o) => (o as PromiseFulfilledResult<BoundListener>).value);
  await Promise.all(outcomes.map((o) => (o.status === 'fulfilled' ? o.value.server.drain(0) : undefined)));
  throw failed.reason;
}
