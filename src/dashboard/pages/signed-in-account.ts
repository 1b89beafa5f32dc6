/** The account of the signed-in person, as the dashboard's pages act for it (a principal like a key's account). */
import type { Account } from '../../domain/account.js';
import { forbidden } from '../../domain/errors.js';
import { html } from '../html.js';
import type { DashboardRequest } from '../page.js';

export async function signedInAccount(r: DashboardRequest): Promise<Account> {
  // The session's read found its account already (sessions.find joins it).
  const account = r.session?.account;
  if (!account) throw forbidden('this session has no account');
  return account;
}

/** Who made a change from the dashboard, for the activity log. */
export const actorOf = (r: DashboardRequest) => ({ clientAddress: r.client.address });

/** A moment as the pages write it: `2026-11-28 00:15:02 UTC`. */
export const utcText = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** A time in a table cell: machine-readable, shown as UTC. */
export const timeCell = (ms: number | null) => (ms === null ? html`—` : html`<time datetime="${new Date(ms).toISOString()}">${utcText(ms)}</time>`);

/** The fixed text of a redirect's `done=` (nothing from the query string is shown). */
export const noticeOf = (r: DashboardRequest, notices: Record<string, string>) => {
  const done = r.url.searchParams.get('done') ?? '';
  return Object.hasOwn(notices, done) ? notices[done] : undefined;
};
