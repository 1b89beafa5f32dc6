/**
 * Whose things an operation on an account's things (webhook endpoints and deliveries, keys, price
 * alerts) may touch: one account's (the dashboard and GraphQL, for the signed-in or keyed caller),
 * or any account's (the operator, through the CLI). Every such operation takes one, required, so
 * that forgetting it fails to compile instead of reading or changing another account's things; out
 * of scope, a thing is as good as missing (404, nothing said of it).
 */
export type Scope = { readonly kind: 'account'; readonly accountId: string } | { readonly kind: 'operator' };

export const accountScope = (accountId: string): Scope => ({ kind: 'account', accountId });

/** The operator's: the CLI, run on the server by whoever runs the service. */
export const OPERATOR_SCOPE: Scope = { kind: 'operator' };

export const inScope = (scope: Scope, accountId: string): boolean => scope.kind === 'operator' || scope.accountId === accountId;

/** How a refusal says where nothing was found: " on this account" in an account's scope. */
export const whereScoped = (scope: Scope): string => (scope.kind === 'account' ? ' on this account' : '');
