/**
 * SIGINT and SIGTERM on `market-gateway start`: the signal npm forwards right after the terminal's
 * own is the same Ctrl-C, not a "force"; a second one after a pause exits at once.
 */
import { createSignalHandler, REPEAT_SIGNAL_MS } from '../../../src/cli/serve.js';

function harness() {
  let clock = 1_000;
  const exits: number[] = [];
  const lines: string[] = [];
  let stops = 0;
  let finish: () => void = () => undefined;
  const onSignal = createSignalHandler({
    stop: () => {
      stops += 1;
      return new Promise<void>((resolve) => (finish = resolve));
    },
    exit: (code) => void exits.push(code),
    write: (line) => void lines.push(line),
    now: () => clock,
  });
  return { onSignal, exits, lines, stops: () => stops, finish: () => finish(), advance: (ms: number) => (clock += ms) };
}

it('two SIGINTs close together (the terminal, then npm forwarding it) stop once, gracefully: exit 0', async () => {
  const h = harness();
  h.onSignal('SIGINT');
  h.advance(5);
  h.onSignal('SIGINT');
  expect(h.stops()).toBe(1);
  expect(h.exits).toEqual([]);
  h.finish();
  await new Promise((r) => setImmediate(r));
  expect(h.exits).toEqual([0]);
  expect(h.lines).toEqual([]);
});

it('a second Ctrl-C after a pause exits at once with 1 and says so', () => {
  const h = harness();
  h.onSignal('SIGINT');
  h.advance(REPEAT_SIGNAL_MS);
  h.onSignal('SIGINT');
  expect(h.exits).toEqual([1]);
  expect(h.lines).toEqual(['SIGINT again: exiting without waiting for shutdown\n']);
});

it('a failed stop exits 1 with the reason', async () => {
  const exits: number[] = [];
  const lines: string[] = [];
  const onSignal = createSignalHandler({
    stop: () => Promise.reject(new Error('store busy')),
    exit: (c) => void exits.push(c),
    write: (l) => void lines.push(l),
  });
  onSignal('SIGTERM');
  await new Promise((r) => setImmediate(r));
  expect(exits).toEqual([1]);
  expect(lines[0]).toMatch(/shutdown failed: .*store busy/);
});
