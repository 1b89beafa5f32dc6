/**
 * The dashboard's page shell: a skip link, the navigation of a signed-in person, one `main` with
 * the page's h1, and a region where results and errors are announced. No inline script or style:
 * the CSP allows only the dashboard's own files.
 */
import type { Variant } from '../domain/variant.js';
import { type Html, html } from './html.js';

/** Scripts and styles from this origin only; forms post here only; nothing frames the pages. */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export const NAV = [
  ['keys', 'API keys'],
  ['usage', 'Usage'],
  ['alerts', 'Alerts'],
  ['webhooks', 'Webhooks'],
  ['security', 'Security'],
] as const;
export type Section = (typeof NAV)[number][0];

export interface PageOptions {
  title: string;
  variant: Variant;
  /** The signed-in person, with the token the sign-out form carries; none before sign-in. */
  signedIn?: { email: string; csrfToken: string; section?: Section };
  /** A result to announce (role=status), or an error (role=alert). */
  notice?: string | undefined;
  error?: string | undefined;
}

/** The product each listener's dashboard is opened from, by its name (the variants are the contract's word, not a customer's). */
export const PRODUCT: Record<Variant, string> = { A: 'Market data', B: 'Prediction markets' };

export function page(options: PageOptions, body: Html): Html {
  const { signedIn } = options;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · ${PRODUCT[options.variant]} · market-gateway account</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/account/assets/dashboard.css">
<script src="/account/assets/dashboard.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<div class="bar">
<p class="brand">market-gateway <span>${PRODUCT[options.variant]}</span></p>
${
  signedIn
    ? html`<nav aria-label="Account">
<ul>${NAV.map(([id, label]) => html`<li><a href="/account/${id}"${signedIn.section === id ? html` aria-current="page"` : ''}>${label}</a></li>`)}</ul>
</nav>
<form method="post" action="/account/sign-out" class="sign-out inline">
<input type="hidden" name="csrf" value="${signedIn.csrfToken}">
<span class="who">${signedIn.email}</span> <button type="submit" class="quiet">Sign out</button>
</form>`
    : ''
}
</div>
</header>
<main id="main">
<h1>${options.title}</h1>
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
${body}
</main>
</body>
</html>
`;
}

/** A hidden field with the form's CSRF token. */
export const csrfField = (token: string) => html`<input type="hidden" name="csrf" value="${token}">`;

/** A form that posts `fields` (hidden) and its CSRF token with whatever `body` adds. */
export function postForm(action: string, csrfToken: string, fields: Record<string, string>, body: Html | string, options: { inline?: boolean } = {}) {
  return html`<form method="post" action="${action}"${options.inline ? html` class="inline"` : ''}>${csrfField(csrfToken)}${Object.entries(fields).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}${body}</form>`;
}

/** A one-button form; `label` names the button where its text alone is ambiguous. */
export function postButton(action: string, csrfToken: string, fields: Record<string, string>, text: string, options: { label?: string; kind?: string } = {}) {
  const button = html`<button type="submit" class="${options.kind ?? 'secondary'}"${options.label ? html` aria-label="${options.label}"` : ''}>${text}</button>`;
  return postForm(action, csrfToken, fields, button, { inline: true });
}

/** A secret shown once: a read-only field named `label` and a Copy button (public/dashboard/dashboard.js). */
export const secretField = (id: string, label: string, value: string) =>
  html`<div class="secret-row"><input type="text" readonly id="${id}" aria-label="${label}" class="secret" value="${value}">
<button type="button" data-copy="${id}">Copy</button></div>`;

/** A button that opens this page's confirmation of `what` for `id` (a GET: nothing changes until its POST). */
export const confirmButton = (action: string, what: string, id: string, text: string, label: string) =>
  html`<form method="get" action="${action}" class="inline"><input type="hidden" name="${what}" value="${id}"><button type="submit" class="secondary" aria-label="${label}">${text}</button></form>`;

/** Each item's accessible name, made unique: two alike get their ids too (screen readers and tests find one control per name). */
export function distinctNames<T>(items: readonly T[], idOf: (item: T) => string, nameOf: (item: T) => string): Map<string, string> {
  const base = new Map(items.map((item) => [idOf(item), nameOf(item)]));
  const counts = new Map<string, number>();
  for (const name of base.values()) counts.set(name, (counts.get(name) ?? 0) + 1);
  return new Map([...base].map(([id, name]) => [id, counts.get(name)! > 1 ? `${name} (${id})` : name]));
}

/*
 * A table that becomes one card per row below 40rem (dashboard.css, `table.stack`): its cells carry
 * their column's name for sight (`data-label`), and its roles are said explicitly, because the
 * stacked rows are CSS blocks, which browsers no longer expose as a table.
 */

/** The opening of a stacked table: its caption (the accessible name; `titled` hides it where the page's heading says it) and column headers. */
export const stackedTableHead = (id: string, caption: string, headers: readonly string[], options: { titled?: boolean } = {}) =>
  html`<table class="stack${options.titled ? ' titled-by-page' : ''}" role="table" aria-labelledby="${id}">
<caption id="${id}">${caption}</caption>
<thead role="rowgroup"><tr role="row">${headers.map((h) => html`<th scope="col" role="columnheader">${h}</th>`)}</tr></thead>`;

/** A cell of a stacked table, named by its column for sight. */
export const stackedCell = (label: string, content: Html | string) => html`<td role="cell" data-label="${label}">${content}</td>`;
