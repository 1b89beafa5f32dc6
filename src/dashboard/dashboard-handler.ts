/**
 * The account dashboard at /account, a transport like the REST facade: the listener's pipeline
 * stamps and limits it, then this handler finds the session (the principal here, as a key is
 * elsewhere), refuses cross-site writes and writes without their CSRF token, and hands the request
 * to its page. Pages call the same domain rules as the CLI and GraphQL; a domain error is shown on
 * the page with its status, anything else is classified once like every other answer.
 */
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import getRawBody from 'raw-body';
import type { LiveSession } from '../dashboard-accounts/index.js';
import type { Variant } from '../domain/variant.js';
import type { Classify } from '../edge/classify.js';
import { ApiError, badRequest } from '../domain/refusal.js';
import { FORM_COOKIE, readCookie, SESSION_COOKIE, setCookie } from './cookies.js';
import { crossSiteReason, ownOrigin } from './cross-site.js';
import { html } from './html.js';
import { page, DASHBOARD_CSP } from './layout.js';
import { newFormToken, sameToken } from './form-token.js';
import type { DashboardAction, DashboardAnswer, DashboardPage, DashboardRequest } from './page.js';
import { type PreparedPage, preparePage } from './page-answers.js';
import type { DashboardServices } from './services.js';

export const DASHBOARD_PATH = '/account';

const ASSETS: Record<string, string> = { 'dashboard.css': 'text/css; charset=utf-8', 'dashboard.js': 'text/javascript; charset=utf-8' };
/** The files' names before this release, served too: a page an older instance rendered still finds them during a rolling deploy. */
const FORMER_NAMES: Record<string, string> = { 'portal.css': 'dashboard.css', 'portal.js': 'dashboard.js' };
/** Forms are small; anything larger is not one of ours. */
const MAX_FORM_BYTES = 64 * 1024;

interface DashboardOptions {
  variant: Variant;
  pages: readonly DashboardPage[];
  services: DashboardServices;
  classify: Classify;
}

/** public/dashboard from src/dashboard (tsx, tests) and from dist/src/dashboard (the build). */
function assetDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const fromDist = path.resolve(here, '../../../public/dashboard');
  return fs.existsSync(fromDist) ? fromDist : path.resolve(here, '../../public/dashboard');
}

/** The dashboard's files (its stylesheet and script), read once. */
function loadAssets(): Map<string, { type: string; body: Buffer }> {
  const dir = assetDir();
  const assets = new Map(Object.entries(ASSETS).map(([name, type]) => [name, { type, body: fs.readFileSync(path.join(dir, name)) }]));
  for (const [former, name] of Object.entries(FORMER_NAMES)) assets.set(former, assets.get(name)!);
  return assets;
}

function send(res: ServerResponse, answer: DashboardAnswer): void {
  res.setHeader('Cache-Control', 'no-store');
  if ('redirect' in answer) {
    res.statusCode = 303;
    res.setHeader('Location', answer.redirect);
    res.end();
    return;
  }
  if ('html' in answer) {
    for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
    res.statusCode = answer.status ?? 200;
    res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
    // Forms post with their real Origin (no-referrer, the listeners' default, makes browsers send `Origin: null`).
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(answer.html.text);
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', answer.type);
  if (answer.filename) res.setHeader('Content-Disposition', `attachment; filename="${answer.filename}"`);
  res.end(answer.body);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw badRequest('send the form as application/x-www-form-urlencoded');
  const text = await getRawBody(req, { limit: MAX_FORM_BYTES, encoding: 'utf8' }).catch(() => {
    throw badRequest('the form is too large or could not be read');
  });
  return new URLSearchParams(text);
}

/** A refusal before any page runs: the reason, its status, a way back. */
function refusal(request: DashboardRequest, status: number, message: string): DashboardAnswer {
  return { html: request.render('Request refused', html`<p>${message}</p><p><a href="/account">Back to your account</a></p>`), status };
}

/**
 * A write's guard, before anything is read or changed: same site only, and the form's token (the
 * session's, or for a signed-out form the form cookie's: a session may have ended since the page
 * was shown). The form is read into the request; a refusal is returned.
 */
async function refusedWrite(request: DashboardRequest, target: DashboardPage, formToken: string): Promise<DashboardAnswer | undefined> {
  const crossSite = crossSiteReason(request.req, request.services.publicUrl);
  if (crossSite) return refusal(request, 403, `Refused: this request came from another site (${crossSite}).`);
  request.form = await readForm(request.req);
  const expected = request.session?.csrfToken ?? request.pending?.csrfToken ?? formToken;
  const sent = request.form.get('csrf') ?? '';
  if (!sameToken(sent, expected) && !(target.signedIn === false && sameToken(sent, formToken))) {
    return refusal(request, 403, 'Refused: the form is out of date or did not come from this site. Reload the page and try again.');
  }
  return undefined;
}

/** What a page handler sees of a request, around the session it belongs to. */
function dashboardRequest(
  options: DashboardOptions,
  exchange: { req: IncomingMessage; res: ServerResponse; url: URL },
  session: LiveSession | undefined,
  formToken: string,
  secure: boolean,
): DashboardRequest {
  const { services, variant } = options;
  const { req, res } = exchange;
  const signedIn = session?.stage === 'signed_in' ? session : undefined;
  return {
    ...exchange,
    client: { address: req.socket.remoteAddress ?? 'unknown', userAgent: String(req.headers['user-agent'] ?? '') },
    session: signedIn,
    pending: session?.stage === 'second_factor' ? session : undefined,
    form: new URLSearchParams(),
    formToken,
    base: services.publicUrl ?? ownOrigin(req, undefined),
    services,
    variant,
    setSession: (value) => setCookie(res, SESSION_COOKIE, value, { secure }),
    render: (title, body, extra) =>
      page(
        {
          title,
          variant,
          notice: extra?.notice,
          error: extra?.error,
          ...(signedIn ? { signedIn: { email: signedIn.email, csrfToken: signedIn.csrfToken, ...(extra?.section ? { section: extra.section } : {}) } } : {}),
        },
        body,
      ),
  };
}

/**
 * The dashboard's handler: `pages` go into the listener's table by their full path (one dispatch to
 * a page); the handler itself answers the rest of /account (its root, a trailing slash, its files,
 * a page that does not exist).
 */
export function createDashboardHandler(options: DashboardOptions) {
  const { services } = options;
  const pages = new Map(options.pages.map((p) => [p.path, preparePage(p)]));
  const assets = loadAssets();
  const secure = services.publicUrl?.startsWith('https:') ?? false;

  function serveAsset(req: IncomingMessage, res: ServerResponse, name: string): void {
    const asset = assets.get(name);
    if (!asset || (req.method !== 'GET' && req.method !== 'HEAD')) throw new ApiError(404, `no dashboard file ${name}`);
    res.setHeader('Content-Type', asset.type);
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.end(asset.body);
  }

  /** A request for `target` (found by the listener's table), or for whatever else is under /account. */
  async function handle(target: PreparedPage | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://dashboard');
    const rest = target ? target.page.path : url.pathname.slice(DASHBOARD_PATH.length).replace(/^\/+/, '').replace(/\/+$/, '');
    if (!target && rest.startsWith('assets/')) return serveAsset(req, res, rest.slice('assets/'.length));

    const session = await services.sessions.resolve(readCookie(req, SESSION_COOKIE));
    let formToken = readCookie(req, FORM_COOKIE);
    if (!formToken) {
      formToken = newFormToken();
      setCookie(res, FORM_COOKIE, formToken, { secure });
    }
    const request = dashboardRequest(options, { req, res, url }, session, formToken, secure);
    const found = target ?? pages.get(rest === '' ? (request.session ? 'keys' : 'sign-in') : rest);
    if (!found) return send(res, refusal(request, 404, `There is no page /account/${rest}.`));
    if (found.page.signedIn && !request.session) return send(res, { redirect: `${DASHBOARD_PATH}/sign-in` });
    if (!found.takes(req.method)) {
      res.setHeader('Allow', found.allow);
      return send(res, refusal(request, 405, `${req.method} is not allowed here.`));
    }
    if (req.method === 'POST') {
      const refused = await refusedWrite(request, found.page, formToken);
      if (refused) return send(res, refused);
    }
    return send(res, await answerOf(found.page, request, found.answerTo(req.method, request.form)));
  }

  /**
   * Runs a page's answer; a refusal (a domain error, the sign-in throttle, any ApiError a page
   * returns) is shown on the page's own form with its status and headers; a dependency's failure
   * (5xx) goes to the listener's error renderer.
   */
  async function answerOf(target: DashboardPage, request: DashboardRequest, answer: DashboardAction): Promise<DashboardAnswer> {
    try {
      return await answer(request);
    } catch (error) {
      const refusal = options.classify('dashboard', error);
      if (refusal.status >= 500) throw refusal;
      const shown = await target.get(request, { error: refusal.message, status: refusal.status });
      return 'html' in shown ? { ...shown, status: refusal.status, headers: { ...shown.headers, ...refusal.headers } } : shown;
    }
  }

  return Object.assign(handle.bind(undefined, undefined), {
    /** Each page's handler, by its full path (`/account/keys`). */
    pages: new Map([...pages.values()].map((p) => [`${DASHBOARD_PATH}/${p.page.path}`, handle.bind(undefined, p)])),
  });
}
