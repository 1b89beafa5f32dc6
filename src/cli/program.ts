/** The `market-gateway` command tree (D13). */
import { Command } from 'commander';
import { registerAccounts } from './accounts.js';
import { setVerbose } from './context.js';
import { registerAlerts } from './alerts.js';
import { registerDocuments } from './documents.js';
import { registerKeys } from './keys.js';
import { registerLinks } from './links.js';
import { registerServe } from './serve.js';
import { registerUsage } from './usage.js';
import { registerWebhooks } from './webhooks.js';
import { packageVersion } from '../package-info.js';

export function buildProgram(): Command {
  const program = new Command('market-gateway')
    .description('Market gateway: serve the API, manage accounts, API keys, price alerts, webhooks, trusted documents and usage records')
    .version(packageVersion(), '-V, --version', 'print the version')
    // Throw instead of exiting, so main decides the exit code and the store is always closed.
    .exitOverride()
    .showSuggestionAfterError()
    .option('--verbose', 'also print notes on stderr, such as which store a command opened')
    // Anywhere on the line (`keys list --verbose` too): a global option, read once the command is known.
    .hook('preAction', (_program, command) => setVerbose(command.optsWithGlobals().verbose === true));
  registerServe(program);
  registerKeys(program);
  registerAccounts(program);
  registerAlerts(program);
  registerWebhooks(program);
  registerDocuments(program);
  registerUsage(program);
  registerLinks(program);
  return program;
}
