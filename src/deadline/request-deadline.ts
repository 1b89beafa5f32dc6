/**
 * A request's one bound on PostgreSQL. Each statement, its wait for a connection included, is cut at
 * REQUEST_STATEMENT_MS (pg-deadline.ts). A request whose admission already waited on the store (a
 * known key re-read on a slow database, answered from its cached entry after 250 ms) would then
 * have that wait plus a whole bound: 1.05 s where a second is promised. Such a request runs its
 * statements within a deadline counted from the start of its admission instead.
 *
 * The edge sets it (an admission that took longer than ADMISSION_WAIT_ALLOWED_MS runs its work
 * within `began + REQUEST_STATEMENT_MS`). It travels with the request's asynchronous work
 * (AsyncLocalStorage), entered only for such requests: the hot path, whose admission reads memory,
 * neither enters this module nor pays for it. Only the requests' pool reads it: the jobs' pool and
 * the migrations' have bounds of their own, so background work woken by a request (a webhook
 * delivery after a mutation) is never cut by that request's deadline. A computation several
 * requests share (a kept answer, the day's brief) runs outside the deadline of whichever request
 * started it (`outsideStoreDeadline`); each request waits for it within its own
 * (`awaitWithinStoreDeadline`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * How long a request's statement, its wait for a connection included, may take on PostgreSQL: a
 * dead or hung database is a 503 within a second, answer included.
 */
export const REQUEST_STATEMENT_MS = 800;

/**
 * An admission shorter than this leaves each statement its whole bound: 150 + 800 ms and the answer
 * stay within a second. A known key's re-read on a failing database lets it in after 250 ms, past
 * it. Lower (it was 20), a burst on a healthy but busy database, whose admissions queue on the day
 * count's row, could have its statements cut: 503s where 200s were due (the likely cause of a CI failure).
 */
export const ADMISSION_WAIT_ALLOWED_MS = 150;

const deadlines = new AsyncLocalStorage<number>();

/** Runs `work` with its PostgreSQL statements bound by `deadline` (performance.now() time); as it is for none. */
export function withinStoreDeadline<T>(deadline: number | undefined, work: () => T): T {
  return deadline === undefined ? work() : deadlines.run(deadline, work);
}

/** The deadline of the request this code runs for, if it has one. */
export const currentStoreDeadline = (): number | undefined => deadlines.getStore();

/**
 * Runs `work` outside the current request's deadline: a computation other requests share, or work
 * that outlives the request.
 */
export function outsideStoreDeadline<T>(work: () => T): T {
  return deadlines.getStore() === undefined ? work() : deadlines.exit(work);
}

/** pg's words for a statement past its bound, which the request's deadline passing is too: a 503. */
const DEADLINE_PASSED = "Query read timeout: the request's deadline on the store passed";

/**
 * `shared` (a computation begun `outsideStoreDeadline`) for the request this code runs for: as it
 * settles, or refused at the request's deadline, as the request's own statement would be, while it
 * goes on for the others that wait on it.
 */
export function awaitWithinStoreDeadline<T>(shared: Promise<T>): Promise<T> {
  const deadline = deadlines.getStore();
  if (deadline === undefined) return shared;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(DEADLINE_PASSED)), Math.max(0, deadline - performance.now()));
    shared.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
