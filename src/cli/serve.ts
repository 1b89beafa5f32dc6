/**
 * `start` (what `npm start` runs: HTTP and jobs in one process), `serve` (HTTP only) and `worker`
 * (jobs only): each runs until SIGINT/SIGTERM, then stops cleanly.
 */
import type { Command } from 'commander';
import type { Role } from '../app.js';
import { loadCliConfig } from './context.js';
import { CliError, describeError } from './errors.js';

const ROLES: { command: string; role: Role; description: string }[] = [
  { command: 'start', role: 'all', description: 'run the whole gateway in one process: both variants (GraphQL and REST) and the background jobs' },
  { command: 'serve', role: 'http', description: 'run the HTTP API only (stateless; several behind a load balancer, with DATABASE_URL and REDIS_URL)' },
  {
    command: 'worker',
    role: 'worker',
    description: 'run the background jobs only (ingest, detectors, alerts, the brief); with PostgreSQL one worker at a time holds them',
  },
];

export function registerServe(program: Command): void {
  for (const { command, role, description } of ROLES) {
    program
      .command(command)
      .description(`${description}, until SIGINT or SIGTERM`)
      .action(async () => {
        const config = await loadCliConfig();
        // Imported here so the key and alert commands never load the whole server.
        const [{ startService }, { ConfigError }, { ListenError }] = await Promise.all([
          import('../app.js'),
          import('../config/config.js'),
          import('../http/listeners.js'),
        ]);
        const starting = startService(config, { role }).catch((error: unknown) => {
          // The operator's to fix (a port, a URL, a role on the wrong store): the message names the setting.
          throw error instanceof ConfigError || error instanceof ListenError ? new CliError(error.message) : error;
        });
        // Listening before the start is over: a SIGTERM sent as soon as the listening line is out
        // (a process manager's, a script's) stops the service once started, not node's default death.
        stopOnSignal({ stop: async () => (await starting).stop() });
        await starting;
        await new Promise<never>(() => undefined);
      });
  }
}

/**
 * A signal this soon after the first is the same request. Ctrl-C in a terminal signals the whole
 * foreground group: npm and the server get SIGINT together, and npm forwards its own a few
 * milliseconds later. A second Ctrl-C after this pause means the operator does not want to wait.
 */
export const REPEAT_SIGNAL_MS = 500;

/** What SIGINT and SIGTERM do: the first stops gracefully, one after the pause exits at once (1). */
export function createSignalHandler(options: {
  stop: () => Promise<void>;
  exit: (code: number) => void;
  write: (line: string) => void;
  now?: () => number;
}): (signal: NodeJS.Signals) => void {
  const now = options.now ?? Date.now;
  let firstAt: number | undefined;
  return (signal) => {
    if (firstAt !== undefined) {
      if (now() - firstAt < REPEAT_SIGNAL_MS) return;
      options.write(`${signal} again: exiting without waiting for shutdown\n`);
      return options.exit(1);
    }
    firstAt = now();
    options.stop().then(
      () => options.exit(0),
      (error: unknown) => {
        options.write(`error: shutdown failed: ${describeError(error)}\n`);
        options.exit(1);
      },
    );
  };
}

function stopOnSignal(service: { stop(): Promise<void> }): void {
  const onSignal = createSignalHandler({
    stop: () => service.stop(),
    exit: (code) => process.exit(code),
    write: (line) => void process.stderr.write(line),
  });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
