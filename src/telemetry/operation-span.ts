/** The span of a GraphQL operation run for a request, whichever transport asked for it (REST, /graphql). */
import type { Tracing } from './types.js';

export interface TracedOperation {
  name: string;
  type: 'query' | 'mutation' | 'subscription';
  /** The sha256 of its text. */
  documentId: string;
}

/** `<type> <name>`, as the semantic conventions name it; an unnamed operation's name says its type already. */
export const operationSpanName = (type: TracedOperation['type'], name: string): string => (name.startsWith(`${type} `) ? name : `${type} ${name}`);

/**
 * Runs `work` in the operation's span (`<type> <name>`) when `traced`; `ran` says, from its value,
 * whether it executed or answered from a kept answer.
 */
export function inOperationSpan<T>(traced: Tracing | undefined, operation: TracedOperation, work: () => Promise<T>, ran: (value: T) => boolean): Promise<T> {
  if (!traced) return work();
  const attributes = { 'graphql.operation.name': operation.name, 'graphql.operation.type': operation.type, 'graphql.document.id': operation.documentId };
  return traced.inSpan(operationSpanName(operation.type, operation.name), attributes, async (span) => {
    const value = await work();
    span.set({ 'mgw.graphql.answer': ran(value) ? 'executed' : 'cached' });
    return value;
  });
}
