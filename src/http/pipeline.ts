/**
 * One listener's pipeline: an ordered list of steps that every request passes, and one error
 * renderer for every path. A step answers (returns true) or passes the request on; whatever a step
 * throws or rejects with is rendered by `fail`, in the variant's envelope, classified once.
 * Answers written on the socket before any step (http-server.ts) carry the same stamp (stamp.ts).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Classify } from '../edge/classify.js';
import type { Variant } from '../domain/variant.js';
import { sendError } from '../rest/envelope.js';
import { JSON_ONLY_CSP } from './security-headers.js';

/** True when the step answered (or will: a promise it started). */
export type Step = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<void>;

export interface Pipeline {
  handle: RequestListener;
  /** The one error renderer: what `error` is, in the variant's envelope (or the end of a response already started). */
  fail(res: ServerResponse, error: unknown): void;
}

export function createPipeline(options: { variant: Variant; classify: Classify; steps: readonly Step[] }): Pipeline {
  const { variant, classify, steps } = options;
  const fail = (res: ServerResponse, error: unknown): void => {
    const answer = classify('http', error);
    // Too late for a status: end what was started, so the client sees a cut answer, not a hang.
    if (res.headersSent) return void res.destroy();
    // An error is JSON, whatever page the path would have served.
    res.setHeader('Content-Security-Policy', JSON_ONLY_CSP);
    sendError(res, variant, answer, res.req.method === 'HEAD');
  };
  return {
    fail,
    handle(req, res) {
      try {
        for (const step of steps) {
          const answered = step(req, res);
          if (answered === false) continue;
          if (answered !== true) answered.catch((error: unknown) => fail(res, error));
          return;
        }
      } catch (error) {
        fail(res, error);
      }
    },
  };
}
