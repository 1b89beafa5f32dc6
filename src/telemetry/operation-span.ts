/** The span of a GraphQL operation run for a request, whichever transport asked for it (REST, /graphql). */
import type { Tracing } from './types.js';

export interface TracedOperation {
  name: string;
  type: 'query' | 'mutation' | 'subscription';
  /** The sha256 of its text. */
  documentId: string;
}

/**
 * An operation's name as telemetry keeps it: the client chose it, and a GraphQL name has no length
 * limit of its own (a body's 100 KB), so past 64 characters it is cut, in span names, attributes
 * and metric labels alike.
 */
export const boundedOperationName = (name: string): string => (name.length <= 64 ? name : name.slice(0, 64));

/** `<type> <name>`, as the semantic conventions name it; an unnamed operation's name says its type already. */
export const operationSpanName = (type: TracedOperation['type'], name: string): string => (name.startsWith(`${type} `) ? name : `${type} ${name}`);

/**
 * Runs `work` in the operation's span (`<type> <name>`) when `traced`; `ran` says, from its value,
 * whether it executed or answered from a kept answer.
 */
export function inOperationSpan<T>(traced: Tracing | undefined, operation: TracedOperation, work: () => Promise<T>, ran: (value: T) => boolean): Promise<T> {
  if (!traced) return work();
  const name = boundedOperationName(operation.name);
  const attributes = { 'graphql.operation.name': name, 'graphql.operation.type': operation.type, 'graphql.document.id': operation.documentId };
  return traced.inSpan(operationSpanName(operation.type, name), attributes, async (span) => {
    const value = await work();
    span.set({ 'mgw.graphql.answer': ran(value) ? 'executed' : 'cached' });
    return value;
  });
}
