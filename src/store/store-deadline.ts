/**
 * A request's one bound on PostgreSQL. Each statement, its wait for a connection included, is cut at
 * REQUEST_STATEMENT_MS (pg-deadline.ts). A request whose admission already waited on the store (a
 * known key re-read on a slow database, answered from its cached entry after 250 ms) would then
 * have that wait plus a whole bound: 1.05 s where a second is promised. Such a request runs its
 * statements within a deadline counted from the start of its admission instead.
 *
 * The deadline travels with the request's asynchronous work (AsyncLocalStorage), entered only for
 * such requests: the hot path, whose admission reads memory, pays nothing for it. Work that outlives
 * the request must not be started from inside it (a timer, a poll): it would carry the deadline,
 * and its later statements would be refused. None does today: the service's timers start with it,
 * and a request's own end with the request.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * How long a request's statement, its wait for a connection included, may take on PostgreSQL: a
 * dead or hung database is a 503 within a second, answer included.
 */
export const REQUEST_STATEMENT_MS = 800;

/** An admission shorter than this leaves each statement its whole bound: the answer stays within a second. */
const ADMISSION_WAIT_ALLOWED_MS = 20;

const deadlines = new AsyncLocalStorage<number>();

/**
 * When the statements of a request whose admission started at `began` (performance.now()) must be
 * done, if its admission took long enough to need one; undefined otherwise.
 */
export function storeDeadlineAfterAdmission(began: number): number | undefined {
  return performance.now() - began > ADMISSION_WAIT_ALLOWED_MS ? began + REQUEST_STATEMENT_MS : undefined;
}

/** Runs `work` with its PostgreSQL statements bound by `deadline` (performance.now() time); as it is for none. */
export function withinStoreDeadline<T>(deadline: number | undefined, work: () => T): T {
  return deadline === undefined ? work() : deadlines.run(deadline, work);
}

/** The deadline of the request this code runs for, if it has one. */
export const currentStoreDeadline = (): number | undefined => deadlines.getStore();
