/**
 * Trusted documents: the GraphQL operations a deployment's own clients send, as their
 * build tooling lists them, each known by the lowercase hex SHA-256 of its exact text.
 */

export const OPERATION_TYPES = ['query', 'mutation', 'subscription'] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];

export interface TrustedDocument {
  /** SHA-256 of `body`, lowercase hex: what a client sends instead of the text. */
  id: string;
  body: string;
  /** The operation's name, where the manifest gives it (Apollo's does, graphql-codegen's does not). */
  name?: string;
  /** Where the manifest gives it (Apollo's). */
  type?: OperationType;
}

/** A document id as clients send it: `sha256:<hex>` (the GraphQL-over-HTTP proposal's and graphql-codegen's form) or bare hex. */
export const documentIdOf = (sent: string): string => (sent.startsWith('sha256:') ? sent.slice('sha256:'.length) : sent);
