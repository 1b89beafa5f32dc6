/**
 * Loaded with `--import` by `npm run test:jest`: the tests run as Node's own ESM, whose type
 * stripping reads the `.ts` files, but the sources import each other as `./x.js` (what tsc emits
 * for dist/). A relative `.js` that does not exist is looked for as `.ts` beside it.
 */
import { registerHooks } from 'node:module';

const RELATIVE_JS = /^\.{1,2}\/.*\.js$/;

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !RELATIVE_JS.test(specifier)) throw error;
      return nextResolve(`${specifier.slice(0, -'.js'.length)}.ts`, context);
    }
  },
});
