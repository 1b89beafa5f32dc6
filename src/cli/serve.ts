/** `serve`: runs the service until SIGINT/SIGTERM, then stops it cleanly (what `npm start` runs). */
import type { Command } from 'commander';
import { loadCliConfig } from './context.js';
import { describeError } from './errors.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the gateway (both variants, GraphQL and REST) until SIGINT or SIGTERM')
    .action(async () => {
      const config = await loadCliConfig();
      // Imported here so the key and alert commands never load the whole server.
      const { startService } = await import('../app.js');
      const service = await startService(config);
      await new Promise<never>(() => stopOnSignal(service));
    });
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
