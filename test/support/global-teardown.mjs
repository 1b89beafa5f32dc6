/** Jest's global teardown: closes the run's one Chromium, if the global setup launched it, then removes the run's temporary directory. */
import { removeRunTmp } from './global-setup.mjs';

export default async function globalTeardown() {
  await globalThis.mgwBrowserServer?.close();
  delete process.env.MGW_TEST_BROWSER_WS;
  removeRunTmp();
}
