/** What a dashboard page is: what it answers to a GET, and what each of its forms does when posted. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientInfo, LiveSession } from '../dashboard-accounts/index.js';
import type { Variant } from '../domain/variant.js';
import type { Html } from './html.js';
import type { Section } from './layout.js';
import type { DashboardServices } from './services.js';

/** What a page handler sees of a request. */
export interface DashboardRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  client: ClientInfo;
  /** A signed-in session (stage `signed_in`); pages marked `signedIn` always have one. */
  session: LiveSession | undefined;
  /** A session waiting for its second factor. */
  pending: LiveSession | undefined;
  /** The fields of a POST. */
  form: URLSearchParams;
  /** The token the forms of a signed-out page carry (double submit with its cookie). */
  formToken: string;
  /** Where links point: PORTAL_PUBLIC_URL, else this request's origin. */
  base: string;
  services: DashboardServices;
  variant: Variant;
  /** Sets the session cookie (sign-in, a new id after a password change). */
  setSession(token: string): void;
  /** A page of this dashboard around `body`, with the navigation when signed in. */
  render(title: string, body: Html, extra?: { notice?: string | undefined; error?: string | undefined; section?: Section }): Html;
}

export type DashboardAnswer =
  | { html: Html; status?: number; headers?: Record<string, string> }
  | { redirect: string }
  | { body: string; type: string; filename?: string };

/** What a posted form does, once the guards of every write let it through. */
export type DashboardAction = (request: DashboardRequest) => Promise<DashboardAnswer>;

export interface DashboardPage {
  /** Under /account: `sign-in`, `keys`. */
  path: string;
  /** Only for a signed-in session (others are sent to sign in). */
  signedIn: boolean;
  get(request: DashboardRequest, shown?: { error?: string; status?: number }): Promise<DashboardAnswer>;
  /** The forms of a page with several, by the value of their `action` field. */
  actions?: Readonly<Record<string, DashboardAction>>;
  /**
   * A POST whose `action` names none of `actions`: a page with one form (which names no action)
   * does it whatever the field says; without it such a POST is refused as an unknown action (400).
   */
  post?: DashboardAction;
  /** Refuses any POST to this page, before its action runs or an unknown one is refused (the plan the page needs). */
  assertMayPost?(request: DashboardRequest): Promise<void>;
}

/**
 * The answer to a form sent again (a reload of the page that answered it, a second click) whose
 * change was made already: its page as a GET shows it, the fields empty, with `error` saying what
 * the first send did and that nothing more was done (409).
 */
export function sentAgain(page: DashboardPage, request: DashboardRequest, error: string): Promise<DashboardAnswer> {
  request.form = new URLSearchParams();
  return page.get(request, { error, status: 409 });
}
