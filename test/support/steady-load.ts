/**
 * Steady load for fault tests: clients in a loop over a set of requests until stopped, each answer
 * recorded with the phase it started and ended in (one that straddles a change belongs to none).
 */
import type { Test } from 'supertest';

export interface Answer {
  phase: string;
  what: string;
  status: number;
  ms: number;
}

export function steadyLoad(requests: [what: string, send: () => Test][], phase: () => string, clients = 8) {
  const answers: Answer[] = [];
  let running = true;
  const loops = Array.from({ length: clients }, async (_, i) => {
    for (let n = i; running; n++) {
      const [what, send] = requests[n % requests.length]!;
      const current = phase();
      const started = Date.now();
      const res = await send();
      answers.push({ phase: phase() === current ? current : 'transition', what, status: res.status, ms: Date.now() - started });
      if (res.status >= 500 && res.status !== 503) throw new Error(`${what}: ${res.status} ${res.text}`);
    }
  });
  return {
    answers,
    of: (p: string) => answers.filter((a) => a.phase === p),
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Answers per phase: how many, how many 503, the longest wait. */
export function summarize(answers: Answer[], phases: string[]) {
  return Object.fromEntries(
    phases.map((p) => {
      const of = answers.filter((a) => a.phase === p);
      return [p, { answers: of.length, '503': of.filter((a) => a.status === 503).length, maxMs: Math.max(0, ...of.map((a) => a.ms)) }];
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
