/** Jest's global teardown: closes the run's one Chromium, if the global setup launched it. */
export default async function globalTeardown() {
  await globalThis.mgwBrowserServer?.close();
  delete process.env.MGW_TEST_BROWSER_WS;
}
