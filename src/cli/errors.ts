/** How the CLI reports failures: one line on stderr, never a stack trace for the operator's mistakes. */
import { CommanderError } from 'commander';
import { DomainError } from '../domain/errors.js';

/** A failure the operator can fix (unknown id, revoked key, bad value): message only, exit 1. */
export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
    this.name = 'CliError';
  }
}

/** Some errors (e.g. Node's AggregateError for a refused connection) have an empty message. */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError && !error.message) {
    const inner = error.errors.map(describeError).filter(Boolean);
    if (inner.length > 0) return [...new Set(inner)].join('; ');
  }
  if (error instanceof Error) {
    if (error.message) return error.message;
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? code : error.name;
  }
  return String(error);
}

/** Prints the error and returns the exit code for it. */
export function reportError(error: unknown, env: NodeJS.ProcessEnv = process.env): number {
  // Commander has already printed its own message (or the help) before throwing.
  if (error instanceof CommanderError) return error.exitCode;
  if (error instanceof CliError || error instanceof DomainError) {
    process.stderr.write(`error: ${error.message}\n`);
    return error instanceof CliError ? error.exitCode : 1;
  }
  // Unexpected: still one line, the stack only on request.
  if (env.DEBUG === '1' && error instanceof Error && error.stack) process.stderr.write(`error: ${error.stack}\n`);
  else process.stderr.write(`error: ${describeError(error)} (DEBUG=1 shows the stack)\n`);
  return 1;
}
