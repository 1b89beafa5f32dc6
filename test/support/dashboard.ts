/** The account dashboard over plain HTTP, as a browser without scripts uses it: forms, cookies, redirects. */
import supertest from 'supertest';

/** The CSRF token of the first form of a page. */
export function csrfOf(page: string): string {
  const found = /name="csrf" value="([^"]+)"/.exec(page);
  if (!found) throw new Error(`no CSRF field in the page:\n${page.slice(0, 500)}`);
  return found[1]!;
}

/** Loads `path`, then posts its form with `fields` and its CSRF token. */
export async function submit(agent: supertest.Agent, path: string, fields: Record<string, string>, action = path) {
  const form = await agent.get(path);
  return agent
    .post(action)
    .type('form')
    .send({ csrf: csrfOf(form.text), ...fields });
}

/** A new dashboard account (open sign-up), signed in: an agent that keeps its cookies. */
export async function signedUpAgent(baseUrl: string, email: string, password = 'correct horse battery staple') {
  const agent = supertest.agent(baseUrl);
  const created = await submit(agent, '/account/sign-up', { email, password });
  if (created.status !== 303) throw new Error(`sign-up answered ${created.status}: ${created.text.slice(0, 300)}`);
  const signedIn = await submit(agent, '/account/sign-in', { email, password });
  if (signedIn.status !== 303 || signedIn.headers.location !== '/account/keys')
    throw new Error(`sign-in answered ${signedIn.status} ${signedIn.headers.location}`);
  return agent;
}

/** The text of an HTML fragment, as a reader hears it. */
export const textOf = (fragment: string) =>
  fragment
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();

/** The rows of a table named by its caption: each row's `data-<attribute>` id and its cells' text. */
export function rowsOf(page: string, caption: string, attribute: string): { id: string; cells: string[]; html: string }[] {
  const table = new RegExp(`<table[^>]*>\\s*<caption[^>]*>${caption}</caption>([\\s\\S]*?)</table>`).exec(page);
  if (!table) return [];
  return [...table[1]!.matchAll(new RegExp(`<tr data-${attribute}="([^"]+)"[^>]*>([\\s\\S]*?)</tr>`, 'g'))].map((row) => ({
    id: row[1]!,
    cells: [...row[2]!.matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((c) => textOf(c[1]!)),
    html: row[2]!,
  }));
}
