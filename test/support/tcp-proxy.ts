/**
 * A TCP proxy in front of a real server (PostgreSQL here), so a test can make the dependency
 * unreachable, hung or restarted without touching the shared server: `refuse()` drops every
 * connection and every new one, `hang()` keeps connections open but passes nothing, `slow(ms)`
 * forwards each new connection only `ms` after accepting it (a busy server's slow handshake),
 * `restore()` goes back to forwarding at once.
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  refuse(): void;
  hang(): void;
  slow(ms: number): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  let mode: 'forward' | 'refuse' | 'hang' = 'forward';
  let delayMs = 0;
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode === 'refuse') return void client.destroy();
    if (mode === 'hang') return; // accepted, never answered
    if (delayMs === 0) return forward(client);
    // What the client sends meanwhile waits with it.
    client.pause();
    setTimeout(() => !client.destroyed && forward(client), delayMs);
  });
  function forward(client: net.Socket) {
    const upstream = net.connect(targetPort, targetHost);
    track(upstream);
    // Data passes only while forwarding: a hang freezes live connections too.
    client.on('data', (d) => mode === 'forward' && upstream.write(d));
    upstream.on('data', (d) => mode === 'forward' && client.write(d));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.resume();
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const destroyAll = () => {
    for (const s of sockets) s.destroy();
  };
  return {
    port: (server.address() as net.AddressInfo).port,
    refuse() {
      mode = 'refuse';
      destroyAll();
    },
    hang() {
      mode = 'hang';
    },
    slow(ms) {
      delayMs = ms;
    },
    restore() {
      // Connections frozen by a hang are dead to their clients anyway: drop them, start clean.
      if (mode === 'hang') destroyAll();
      mode = 'forward';
      delayMs = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        destroyAll();
        server.close(() => resolve());
      }),
  };
}
