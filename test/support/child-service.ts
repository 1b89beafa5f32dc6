/**
 * The service as an operator runs it: `market-gateway start` in a child process (the built bin), on
 * ports of its choosing, read back from its "listening" log line. For tests of whole-process
 * behaviour: signals, kill -9, restarts. Started by the one launcher (launch.ts): a start-up that
 * times out or fails kills it before rejecting, and the file's end kills whatever is left.
 */
import type { ChildProcess } from 'node:child_process';
import { CLI_MAIN, REPO_ROOT } from './cli.js';
import { launch } from './launch.js';

export interface ChildService {
  child: ChildProcess;
  /** Base URLs of the two listeners, e.g. http://127.0.0.1:41234. */
  a: string;
  b: string;
  output(): string;
  /** Sends the signal and resolves with the exit code once the process is gone. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
  /** SIGKILL to it and anything it started, whatever state it is in (for a `finally`). */
  kill(): Promise<void>;
}

export async function spawnService(env: Record<string, string>, timeoutMs = 20_000): Promise<ChildService> {
  const launched = launch(process.execPath, [CLI_MAIN, 'start'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_OPTIONS: '', NODE_ENV: 'production', LOG_LEVEL: 'info', MARKET_DATA_PORT: '0', PREDICTION_PORT: '0', ...env },
  });
  const { child, output, exited } = launched;
  let timer: NodeJS.Timeout | undefined;
  let check: (() => void) | undefined;
  try {
    const listening = await new Promise<{ marketData: string; prediction: string }>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`not listening within ${timeoutMs} ms (pid ${child.pid}, killed):\n${output()}`)), timeoutMs);
      check = () => {
        const line = output()
          .split('\n')
          .find((l) => l.includes('market-gateway listening'));
        if (line) resolve(JSON.parse(line) as { marketData: string; prediction: string });
      };
      child.stdout!.on('data', check);
      void exited.then((code) => reject(new Error(`exited with ${code} before listening:\n${output()}`)));
    });
    return {
      child,
      a: new URL(listening.marketData).origin,
      b: new URL(listening.prediction).origin,
      output,
      async stop(signal) {
        child.kill(signal);
        return exited;
      },
      kill: launched.kill,
    };
  } catch (error) {
    await launched.kill();
    throw error;
  } finally {
    clearTimeout(timer);
    if (check) child.stdout!.off('data', check);
  }
}
