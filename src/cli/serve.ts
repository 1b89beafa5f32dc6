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
        const service = await startService(config, { role }).catch((error: unknown) => {
          // The operator's to fix (a port, a URL, a role on the wrong store): the message names the setting.
          throw error instanceof ConfigError || error instanceof ListenError ? new CliError(error.message) : error;
        });
        await new Promise<never>(() => stopOnSignal(service));
      });
  }
}

function stopOnSignal(service: { stop(): Promise<void> }): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    // A second signal while stopping means the operator does not want to wait.
    if (stopping) {
      process.stderr.write(`${signal} again: exiting without waiting for shutdown\n`);
      process.exit(1);
    }
    stopping = true;
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`error: shutdown failed: ${describeError(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
