/**
 * A page's answers, prepared once at start, so that what answers a request is one lookup: by its
 * method and, for a POST, its form's `action` field.
 */
import { invalid } from '../domain/errors.js';
import type { DashboardAction, DashboardPage } from './page.js';

export interface PreparedPage {
  page: DashboardPage;
  /** The methods the page takes, as a 405's Allow header names them. */
  allow: string;
  takes(method: string | undefined): method is string;
  /** What answers a request the page takes (after the guards of a write, which read its form). */
  answerTo(method: string, form: URLSearchParams): DashboardAction;
}

const unknownAction: DashboardAction = async () => {
  throw invalid('unknown action');
};

/** One key for a method and a form's action (a GET has no form, so no action). */
const keyOf = (method: string, action: string | null) => `${method} ${action ?? ''}`;

export function preparePage(page: DashboardPage): PreparedPage {
  const { assertMayPost } = page;
  const guarded = (action: DashboardAction): DashboardAction =>
    assertMayPost
      ? async (request) => {
          await assertMayPost(request);
          return action(request);
        }
      : action;
  const get: DashboardAction = (request) => page.get(request);
  // A Map, not the page's object: a field such as `constructor` must not find Object's own.
  const answers = new Map<string, DashboardAction>([
    [keyOf('GET', null), get],
    [keyOf('HEAD', null), get], // node's response drops a HEAD's body itself
  ]);
  for (const [name, action] of Object.entries(page.actions ?? {})) answers.set(keyOf('POST', name), guarded(action));
  const otherPost = guarded(page.post ?? unknownAction);
  const methods = page.actions || page.post ? ['GET', 'HEAD', 'POST'] : ['GET', 'HEAD'];
  return {
    page,
    allow: methods.join(', '),
    takes: (method): method is string => method !== undefined && methods.includes(method),
    answerTo: (method, form) => answers.get(keyOf(method, form.get('action'))) ?? otherPost,
  };
}
