/**
 * Managing API keys, one set of rules for every front (the CLI, the account dashboard): at most
 * MAX_LIVE_KEYS_PER_ACCOUNT live keys per account, an expiry in the future, the plaintext shown once
 * and never stored, a key touched only through its own account where a front names one, and every
 * change written to the account's activity log (never the key itself).
 */
import { type Account, MAX_LIVE_KEYS_PER_ACCOUNT, type MarketDataPlan, type PredictionPlan } from '../domain/account.js';
import { invalid, notFound } from '../domain/errors.js';
import { isoOrNull } from '../domain/time.js';
import type { AccountKey, AccountRepository, ApiKeyRecord } from '../store/accounts.js';
import type { ActivityEntry, ActivityKind, ActivityRepository } from '../store/activity.js';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key.js';
import { inScope, type Scope, whereScoped } from '../domain/scope.js';

/** What the rules need of the store; a `Store` is one. */
export interface KeyManagement {
  accounts: AccountRepository;
  activity: ActivityRepository;
}

/** Who made a change: the client's address when a person did it in the dashboard; null from the CLI. */
export interface Actor {
  clientAddress: string | null;
}

export const CLI_ACTOR: Actor = { clientAddress: null };

/** A new key: the plaintext, to show once, with its record and account. */
export interface IssuedKey {
  key: string;
  record: ApiKeyRecord;
  account: Account;
}

export interface NewKeyInput {
  name: string;
  /** When the key stops working (epoch ms, in the future); none by default. */
  expiresAt?: number | null | undefined;
  /** Exempt from trusted-document enforcement (an operator's choice: the CLI). */
  anyOperation?: boolean | undefined;
}

export type KeyState = 'live' | 'revoked' | 'expired';

/** Whether a key works at `now`, and if not, why. */
export function keyState(key: Pick<ApiKeyRecord, 'revokedAt' | 'expiresAt'>, now: number): KeyState {
  if (key.revokedAt !== null) return 'revoked';
  return key.expiresAt !== null && key.expiresAt <= now ? 'expired' : 'live';
}

/** The longest key name: it labels rows and buttons, not documents. */
export const MAX_KEY_NAME = 100;

/** A key's name, trimmed: 1 to MAX_KEY_NAME characters, no control characters. */
function checkedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw invalid('give the key a name');
  if (trimmed.length > MAX_KEY_NAME) throw invalid(`a key name has at most ${MAX_KEY_NAME} characters`);
  // Controls (C0, DEL, C1) and bidirectional overrides, which would make a row or a button read as another.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(trimmed)) throw invalid('a key name cannot contain control or text-direction characters');
  return trimmed;
}

function checkExpiry(expiresAt: number | null | undefined, now: number): void {
  if (expiresAt === undefined || expiresAt === null) return;
  if (!Number.isSafeInteger(expiresAt)) throw invalid('the expiry must be a date and time');
  if (expiresAt <= now) throw invalid(`the expiry must be in the future (${isoOrNull(expiresAt)} has passed)`);
}

const describeKey = (key: ApiKeyRecord) => `key ${key.id} "${key.name}"`;
const expiryNote = (key: ApiKeyRecord) => (key.expiresAt === null ? '' : `, expires ${isoOrNull(key.expiresAt)}`);

function record(deps: KeyManagement, accountId: string, kind: ActivityKind, detail: string, now: number, actor: Actor): Promise<void> {
  return deps.activity.record({ accountId, at: now, kind, detail, clientAddress: actor.clientAddress });
}

/** A fresh key's plaintext and what the store keeps of it. */
function freshKey() {
  const key = generateApiKey();
  return { key, keyHash: hashApiKey(key), displayPrefix: displayPrefix(key) };
}

/** A new account with its first key (how the CLI makes accounts). */
export async function openAccount(
  deps: KeyManagement,
  input: NewKeyInput & { marketDataPlan: MarketDataPlan; predictionPlan: PredictionPlan },
  now: number,
  actor: Actor,
): Promise<IssuedKey> {
  checkExpiry(input.expiresAt, now);
  const { key, ...stored } = freshKey();
  const { account, key: created } = await deps.accounts.createAccountWithKey({
    ...stored,
    name: checkedName(input.name),
    marketDataPlan: input.marketDataPlan,
    predictionPlan: input.predictionPlan,
    now,
    anyOperation: input.anyOperation === true,
    expiresAt: input.expiresAt ?? null,
  });
  await record(deps, account.id, 'key_created', `${describeKey(created)} created with the account${expiryNote(created)}`, now, actor);
  return { key, record: created, account };
}

/** Adds a key unless the account is at its limit; `maxLive` lets a rotation that revokes the old key pass it by that one. */
async function addKey(
  deps: KeyManagement,
  accountId: string,
  input: NewKeyInput,
  now: number,
  maxLive: number,
  activity?: (key: ApiKeyRecord) => ActivityEntry,
): Promise<IssuedKey> {
  checkExpiry(input.expiresAt, now);
  const { key, ...stored } = freshKey();
  const added = await deps.accounts.addKeyWithin(
    {
      ...stored,
      accountId,
      name: checkedName(input.name),
      now,
      anyOperation: input.anyOperation === true,
      expiresAt: input.expiresAt ?? null,
      maxLive,
    },
    activity,
  );
  if (added === undefined) throw notFound(`no account with id ${accountId}`);
  if (added === 'full') {
    throw invalid(
      `an account has at most ${MAX_LIVE_KEYS_PER_ACCOUNT} live keys (neither revoked nor expired); revoke one first, or rotate a key revoking the old one`,
    );
  }
  return { key, record: added.key, account: added.account };
}

/** Another key on an account: refused past the live-key limit, or with an expiry that has passed. */
export function issueKey(deps: KeyManagement, account: Account, input: NewKeyInput, now: number, actor: Actor): Promise<IssuedKey> {
  // The log's entry is written with the key, in its transaction: one store call.
  return addKey(deps, account.id, input, now, MAX_LIVE_KEYS_PER_ACCOUNT, (key) => ({
    accountId: account.id,
    at: now,
    kind: 'key_created',
    detail: `${describeKey(key)} created${expiryNote(key)}`,
    clientAddress: actor.clientAddress,
  }));
}

/** The key `keyId`, if in `scope`: another account's is missing. */
async function ownKey(deps: KeyManagement, keyId: string, scope: Scope) {
  const key = await deps.accounts.findKeyById(keyId);
  if (!key || !inScope(scope, key.accountId)) throw notFound(`no key with id ${keyId}${whereScoped(scope)}`);
  return key;
}

/**
 * A new key replacing a live one: same account, name and exemption, and the old key's expiry unless
 * another is given. The old key keeps working until revoked, or is revoked now with `revokeOld` (then
 * a rotation at the limit passes: the count is back to where it was).
 */
export async function rotateKey(
  deps: KeyManagement,
  keyId: string,
  now: number,
  actor: Actor,
  options: { scope: Scope; revokeOld?: boolean | undefined; expiresAt?: number | null | undefined },
): Promise<IssuedKey & { replaced: ApiKeyRecord }> {
  const old = await ownKey(deps, keyId, options.scope);
  const state = keyState(old, now);
  if (state !== 'live') throw invalid(`key ${keyId} is ${state}; create a new key on its account instead`);
  const input = { name: old.name, anyOperation: old.anyOperation, expiresAt: options.expiresAt === undefined ? old.expiresAt : options.expiresAt };
  const issued = await addKey(deps, old.accountId, input, now, MAX_LIVE_KEYS_PER_ACCOUNT + (options.revokeOld ? 1 : 0));
  if (options.revokeOld) await deps.accounts.revokeKey(old.id, now);
  const revoked = options.revokeOld ? ', which is revoked' : '';
  await record(
    deps,
    old.accountId,
    'key_rotated',
    `${describeKey(issued.record)} created to replace ${old.id}${revoked}${expiryNote(issued.record)}`,
    now,
    actor,
  );
  return { ...issued, replaced: options.revokeOld ? { ...old, revokedAt: now } : old };
}

/** Revokes a key: running servers refuse it within 2 s. Revoking twice keeps the first time (`already`). */
export async function revokeKey(deps: KeyManagement, keyId: string, now: number, actor: Actor, scope: Scope): Promise<{ key: ApiKeyRecord; already: boolean }> {
  const key = await ownKey(deps, keyId, scope);
  if (key.revokedAt !== null) return { key, already: true };
  await deps.accounts.revokeKey(key.id, now);
  await record(deps, key.accountId, 'key_revoked', `${describeKey(key)} revoked`, now, actor);
  return { key: { ...key, revokedAt: now }, already: false };
}

/** An account's keys, oldest first, with their last use; never a key itself (only hashes are stored). */
export function listKeys(deps: KeyManagement, account: Account): Promise<AccountKey[]> {
  return deps.accounts.keysOfAccount(account.id);
}
