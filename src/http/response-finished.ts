/**
 * `whenFinished(res, fn)`: runs `fn` once node has handed the whole response to the socket, as
 * `res.on('finish', fn)` would, but without adding a listener of our own to every response. Node
 * publishes each finished response of its servers on the `http.server.response.finish`
 * diagnostics channel; one subscriber for the process calls the function the response carries.
 *
 * Why not the listener: a second 'finish' listener on each response (node's server adds its own)
 * put the service into a state where a quarter of what it allocated outlived two scavenges and was
 * promoted (about 3.5 MB a scavenge at 16 000 requests a second, 5 to 7 ms pauses, a full
 * collection every half second), on every route, /health included; without it, 15 KB a scavenge
 * and 0.4 to 0.9 ms pauses (docs/performance-log.md, "the tails were two listener habits"). A no-op listener did
 * the same, so it is the listener, not what ours does; the same listener on a bare node:http
 * server did not, so the mechanism is an interaction we have not isolated.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { ServerResponse } from 'node:http';

const ON_FINISH = Symbol('run when the response is finished');

type Watched = ServerResponse & { [ON_FINISH]?: (this: ServerResponse) => void };

subscribe('http.server.response.finish', (message) => {
  const res = (message as { response: Watched }).response;
  res[ON_FINISH]?.call(res);
});

/** One function per response (a second call replaces the first); it runs with the response as `this`. */
export function whenFinished(res: ServerResponse, fn: (this: ServerResponse) => void): void {
  (res as Watched)[ON_FINISH] = fn;
}
