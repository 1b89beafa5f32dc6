/**
 * The run's one Chromium: Jest's global setup launches it (playwright-core's browser server) when
 * the run includes a browser suite, and closes it at the end; each browser suite connects to it,
 * with contexts of its own, instead of starting a Chromium of its own. A file run outside that
 * setup launches one for itself. Undefined where there is no Chromium (the `chromium` gate skips
 * the tests then).
 */
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM } from './gates.js';

/** The variable Jest's global setup leaves the browser server's WebSocket endpoint in. */
export const BROWSER_ENDPOINT = 'MGW_TEST_BROWSER_WS';

/** Both browser suites' flags: no sandbox (root in CI), nothing fetched beyond what a page asks. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** A connection to the run's Chromium, or a Chromium of this file's own; `close()` ends only what is this file's. */
export async function openBrowser(): Promise<Browser | undefined> {
  if (!CHROMIUM) return undefined;
  const endpoint = process.env[BROWSER_ENDPOINT];
  return endpoint ? chromium.connect(endpoint) : chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
