/**
 * What an embedded installation does not load at start, a few MB of memory each (docs/performance.md):
 * ioredis (only with REDIS_URL), pg (only with DATABASE_URL), nodemailer (with the first message
 * over SMTP_URL), Express (with the first request for /docs), request-filtering-agent (with the
 * first webhook delivery), graphql-rate-limit (with the first limited field over /graphql), otplib
 * and qrcode (with the first two-factor step), fflate (with the first ECB archive) and pino-pretty
 * (only for a terminal). Checked in a child on the built code, as `npm start` loads it: every
 * module the service and the CLI import.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../support/cli.js';

it('the service and the CLI load without the drivers and libraries of features not in use; better-sqlite3, which the store opens, loads', () => {
  const modules = ['dist/src/app.js', 'dist/src/cli/program.js'].map((file) => path.join(REPO_ROOT, file));
  // A load hook sees every module, CommonJS ones imported from ES modules included (which
  // require.cache does not list).
  const script = `
    const { registerHooks } = await import('node:module');
    const packages = new Set();
    registerHooks({
      load(url, context, next) {
        const name = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(url)?.[1];
        if (name) packages.add(name);
        return next(url, context);
      },
    });
    for (const file of ${JSON.stringify(modules)}) await import(file);
    console.log(JSON.stringify([...packages]));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  const packages = JSON.parse(out) as string[];
  expect(packages).toContain('better-sqlite3'); // the check sees what is loaded
  const lazy = ['ioredis', 'pg', 'nodemailer', 'express', 'request-filtering-agent', 'graphql-rate-limit', 'otplib', 'qrcode', 'fflate', 'pino-pretty'];
  expect(lazy.filter((name) => packages.includes(name))).toEqual([]);
});
