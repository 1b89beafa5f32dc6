/**
 * /graphiql: a GraphiQL served by the gateway from its own npm packages (no CDN), that asks for the
 * key first, with a header editor and subscriptions over WebSocket, for networks where Apollo Sandbox (the
 * landing page of GET /graphql, graphql-http/landing-page.ts) cannot load. Nothing of it leaves
 * the gateway.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EXPLORER_PATH } from '../graphql-http/landing-page.js';
import { packageRoot } from '../package-info.js';

const ASSETS = `${EXPLORER_PATH}/assets/`;

const require = createRequire(import.meta.url);

/** An installed package's folder (its `exports` do not list the browser bundles, so they are found by path). */
function packageDir(name: string): string {
  let dir = path.dirname(require.resolve(name));
  while (!fs.existsSync(path.join(dir, 'package.json')) || JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name !== name) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`cannot find the folder of ${name}`);
    dir = up;
  }
  return dir;
}

/** The files the page loads, by the name it asks for: from npm packages, and our own script. */
const FILES: Record<string, { file: string; type: string }> = {
  'react.js': { file: path.join(packageDir('react'), 'umd/react.production.min.js'), type: 'text/javascript' },
  'react-dom.js': { file: path.join(packageDir('react-dom'), 'umd/react-dom.production.min.js'), type: 'text/javascript' },
  'graphiql.js': { file: path.join(packageDir('graphiql'), 'graphiql.min.js'), type: 'text/javascript' },
  'graphiql.css': { file: path.join(packageDir('graphiql'), 'graphiql.min.css'), type: 'text/css' },
  'explorer.js': { file: path.join(packageRoot(), 'public/graphiql-explorer.js'), type: 'text/javascript' },
};

/** Scripts and styles from this origin only; WebSocket and fetch to it too. GraphiQL sets inline styles. */
export const EXPLORER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

/**
 * The page: first a form for the API key (GraphiQL's first request, the schema's introspection,
 * would otherwise go without one, or with a placeholder that is a malformed key), kept in the tab's
 * session storage only; then GraphiQL, which loads the schema with it.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>market-gateway GraphiQL</title>
<link rel="stylesheet" href="${ASSETS}graphiql.css">
<style>
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; color: #1f2430; }
[hidden] { display: none !important; }
#key-form { max-width: 28rem; margin: 12vh auto; padding: 1.5rem; border: 1px solid #d5d9e0; border-radius: 8px; }
#key-form h1 { font-size: 1.25rem; margin: 0 0 .5rem; }
#key-form label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
#key-form input { box-sizing: border-box; width: 100%; padding: .5rem; font: inherit; border: 1px solid #8a93a3; border-radius: 4px; }
#key-form button { margin-top: .75rem; padding: .5rem 1rem; font: inherit; color: #fff; background: #2451b7; border: 0; border-radius: 4px; cursor: pointer; }
#key-form :focus-visible { outline: 3px solid #8fb0ff; outline-offset: 2px; }
#key-error { color: #a1251b; min-height: 1.5em; margin: .5rem 0 0; }
#explorer { display: flex; flex-direction: column; height: 100vh; }
#key-bar { display: flex; gap: .75rem; align-items: center; padding: .25rem .75rem; font-size: 13px; border-bottom: 1px solid #d5d9e0; }
#key-bar button { font: inherit; padding: .125rem .5rem; cursor: pointer; }
#graphiql { flex: 1; min-height: 0; }
</style>
</head>
<body>
<form id="key-form" hidden>
<h1>market-gateway GraphiQL</h1>
<p>Requests need an API key. It is kept in this browser tab only (session storage) and sent as <code>Authorization: Bearer</code>.</p>
<label for="api-key">API key</label>
<input id="api-key" name="key" type="password" autocomplete="off" spellcheck="false" required placeholder="mgw_...">
<button type="submit">Use this key</button>
<p id="key-error" role="alert"></p>
<p>No key yet? Create one in the <a href="/account/keys">account dashboard</a>.</p>
</form>
<div id="explorer" hidden>
<div id="key-bar"><span id="key-shown"></span><button type="button" id="change-key">Change key</button></div>
<div id="graphiql">Loading GraphiQL…</div>
</div>
<script src="${ASSETS}react.js"></script>
<script src="${ASSETS}react-dom.js"></script>
<script src="${ASSETS}graphiql.js"></script>
<script src="${ASSETS}explorer.js"></script>
</body>
</html>`;

/** Answers /graphiql and its assets; false for any other path. */
export function serveExplorer(req: IncomingMessage, res: ServerResponse): boolean {
  const url = (req.url ?? '/').split('?', 1)[0]!;
  if (url !== EXPLORER_PATH && !url.startsWith(ASSETS)) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  res.setHeader('Content-Security-Policy', EXPLORER_CSP);
  if (url === EXPLORER_PATH) {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' });
    res.end(PAGE);
    return true;
  }
  const asset = FILES[url.slice(ASSETS.length)];
  if (!asset) return false;
  res.writeHead(200, { 'Content-Type': `${asset.type}; charset=utf-8`, 'Cache-Control': 'public, max-age=3600' });
  if (req.method === 'HEAD') res.end();
  else fs.createReadStream(asset.file).pipe(res);
  return true;
}
