/**
 * /graphiql: a GraphiQL served by the gateway from its own npm packages (no CDN), with a header
 * editor for the key and subscriptions over WebSocket, for networks where Apollo Sandbox (the
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

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>market-gateway GraphiQL</title>
<link rel="stylesheet" href="${ASSETS}graphiql.css">
<style>body { margin: 0; } #graphiql { height: 100vh; }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
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
    res.end(req.method === 'HEAD' ? undefined : PAGE);
    return true;
  }
  const asset = FILES[url.slice(ASSETS.length)];
  if (!asset) return false;
  res.writeHead(200, { 'Content-Type': `${asset.type}; charset=utf-8`, 'Cache-Control': 'public, max-age=3600' });
  if (req.method === 'HEAD') res.end();
  else fs.createReadStream(asset.file).pipe(res);
  return true;
}
