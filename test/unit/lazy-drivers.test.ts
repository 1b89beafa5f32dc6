/**
 * What an embedded installation does not load: ioredis (only with REDIS_URL), nodemailer (with
 * the first message over SMTP_URL) and Express (with the first request for /docs), a few MB of
 * memory each (docs/performance.md). Checked in a
 * child on the built code, as `npm start` loads it: every module the service and the CLI import.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../support/cli.js';

it('the service and the CLI load without ioredis, nodemailer and express; pg, which the store opens, loads', () => {
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
  expect(packages).toContain('pg'); // the check sees what is loaded
  expect(packages).not.toContain('ioredis');
  expect(packages).not.toContain('nodemailer');
  expect(packages).not.toContain('express');
});
