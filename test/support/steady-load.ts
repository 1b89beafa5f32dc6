/**
 * Steady load for fault tests: clients in a loop over a set of requests until stopped, each answer
 * recorded with the phase it started and ended in (one that straddles a change belongs to none),
 * and with how long this process's event loop was stalled while it was out.
 */
import { performance } from 'node:perf_hooks';
import type { Test } from 'supertest';

export interface Answer {
  phase: string;
  /** For a 'transition' answer: the phases it started and ended in ("hung -> resumed"). */
  between?: string;
  what: string;
  status: number;
  ms: number;
  /**
   * How long this process could not run while the answer was out. The service and its clients
   * share the process: on a loaded machine it is descheduled or held up by its own garbage
   * collection, and that time is no wait of the service's. A request waiting on a hung dependency
   * waits with the loop idle, so its wait is not excused.
   */
  stalledMs: number;
}

const TICK_MS = 5;

/**
 * Samples this process's event loop: a timer due every TICK_MS, and each tick's lateness (the
 * time the loop could not run it). `during(from, to)` adds up the lateness of the ticks in between.
 */
function stallSampler() {
  const ticks: { at: number; late: number }[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    ticks.push({ at: now, late: Math.max(0, now - last - TICK_MS) });
    last = now;
  }, TICK_MS).unref();
  return {
    /** Asked once sampling is over, so the tick that measured a stall ending after `to` is there. */
    during(from: number, to: number) {
      // Each tick's stall spans [at - late, at], in time order: find the first ending after `from`.
      let lo = 0;
      for (let hi = ticks.length; lo < hi; ) {
        const mid = (lo + hi) >> 1;
        if (ticks[mid]!.at <= from) lo = mid + 1;
        else hi = mid;
      }
      let stalled = 0;
      for (let i = lo; i < ticks.length && ticks[i]!.at - ticks[i]!.late < to; i++) {
        const { at, late } = ticks[i]!;
        stalled += Math.min(at, to) - Math.max(at - late, from);
      }
      return Math.round(stalled);
    },
    stop: () => clearInterval(timer),
  };
}

/** An answer's wait less the time this process was stalled meanwhile: what the service made it wait. */
export const serviceWait = (a: Answer) => a.ms - a.stalledMs;

export function steadyLoad(requests: [what: string, send: () => Test][], phase: () => string, clients = 8) {
  const answers: Answer[] = [];
  const spans: { from: number; to: number }[] = [];
  const stalls = stallSampler();
  let running = true;
  const loops = Array.from({ length: clients }, async (_, i) => {
    for (let n = i; running; n++) {
      const [what, send] = requests[n % requests.length]!;
      const current = phase();
      const from = performance.now();
      const res = await send();
      const to = performance.now();
      const now = phase();
      spans.push({ from, to });
      answers.push({
        ...(now === current ? { phase: current } : { phase: 'transition', between: `${current} -> ${now}` }),
        what,
        status: res.status,
        ms: Math.round(to - from),
        stalledMs: 0,
      });
      if (res.status >= 500 && res.status !== 503) throw new Error(`${what}: ${res.status} ${res.text}`);
    }
  });
  return {
    answers,
    of: (p: string) => answers.filter((a) => a.phase === p),
    /** Stops the clients, then says of each answer how long this process was stalled while it was out. */
    async stop() {
      running = false;
      try {
        await Promise.all(loops);
        await new Promise((r) => setTimeout(r, 2 * TICK_MS));
      } finally {
        stalls.stop();
      }
      answers.forEach((a, i) => {
        a.stalledMs = stalls.during(spans[i]!.from, spans[i]!.to);
      });
    },
  };
}

/**
 * The answers of a phase where all was well that were not 200, less those a stall of this process
 * explains: a 503 from a dependency's time-out (`boundMs`) that the request did wait out, but
 * would not have without the stall. The time-out's timer runs before the answer that came meanwhile
 * is read, so a process held up longer than the bound fails its own commands with nothing wrong.
 */
export function unexplainedFailures(answers: Answer[], boundMs: number): Answer[] {
  return answers.filter((a) => a.status !== 200 && !(a.status === 503 && a.ms >= boundMs && serviceWait(a) < boundMs));
}

/** Answers per phase: how many, how many 503, the longest wait, and the longest once stalls are taken out. */
export function summarize(answers: Answer[], phases: string[]) {
  return Object.fromEntries(
    [...phases, 'transition'].map((p) => {
      const of = answers.filter((a) => a.phase === p);
      const longest = (wait: (a: Answer) => number) => Math.max(0, ...of.map(wait));
      return [p, { answers: of.length, '503': of.filter((a) => a.status === 503).length, maxMs: longest((a) => a.ms), maxServiceMs: longest(serviceWait) }];
    }),
  );
}

export interface FaultyServer {
  stop(): Promise<void>;
  start(): Promise<void>;
  hang(): void;
  resume(): void;
}

export const FAULT_PHASES = ['healthy', 'stopped', 'restarted', 'hung', 'resumed', 'after'];

/**
 * Runs `requests` as steady load through healthy -> stopped -> restarted -> hung -> resumed ->
 * after, waiting for `recovered` after each return, and gives back every answer.
 */
export async function loadThroughFaults(server: FaultyServer, requests: Parameters<typeof steadyLoad>[0], recovered: () => Promise<boolean>) {
  let phase = 'healthy';
  const load = steadyLoad(requests, () => phase);
  const settle = (ms = 1_500) => new Promise((r) => setTimeout(r, ms));
  const waitForRecovery = async () => {
    const deadline = Date.now() + 15_000;
    while (!(await recovered())) {
      if (Date.now() > deadline) throw new Error(`no recovery within 15 s after "${phase}"`);
      await settle(100);
    }
  };
  try {
    await settle();
    phase = 'stopped';
    await server.stop();
    await settle();
    phase = 'restarted';
    await server.start();
    await waitForRecovery();
    await settle();
    phase = 'hung';
    server.hang();
    await settle(3_000);
    phase = 'resumed';
    server.resume();
    await waitForRecovery();
    phase = 'after';
    await settle();
  } finally {
    server.resume();
    await load.stop();
  }
  return load;
}

/** Collects unhandled rejections between start() and stop(). */
export function unhandledRejections() {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => void seen.push(reason);
  return {
    seen,
    start: () => process.on('unhandledRejection', listener),
    stop: () => process.off('unhandledRejection', listener),
  };
}
