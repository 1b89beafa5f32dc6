/**
 * A readable page over the OpenAPI document: Swagger UI from the installed swagger-ui-dist,
 * served by the service itself (no CDN, no inline script), so the page works offline and a strict
 * Content-Security-Policy (`script-src 'self'`) can be added without changing it.
 */
import { createRequire } from 'node:module';
import express from 'express';

// The package's own path helper, without its index.js, which would load the 1 MB browser bundle into Node.
const assetsDir = (createRequire(import.meta.url)('swagger-ui-dist/absolute-path.js') as () => string)();

/** Only what the page loads (and their source maps): the package also holds a demo index.html. */
const ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js'];
const SERVED = new Set(ASSETS.flatMap((name) => [name, `${name}.map`]));

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API documentation</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

function initScript(openApiPath: string): string {
  // validatorUrl: null keeps the page from calling the public validator at validator.swagger.io.
  return `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(openApiPath)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  validatorUrl: null,
});
`;
}

/** The /docs pages as a request handler: Express with the router below, no ETag or X-Powered-By of its own. */
export function createDocsApp(openApiPath: string): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(docsRouter(openApiPath));
  return app;
}

/** Serves `/docs` (and `/docs/`), `/docs/init.js` and `/docs/assets/*`; mount it at the root. */
function docsRouter(openApiPath: string): express.Router {
  const router = express.Router();
  const script = initScript(openApiPath);

  // The page and its init script name the document's path, which may change with a deploy: revalidate.
  router.get(['/docs', '/docs/'], (_req, res) => {
    res.set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
    res.send(PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
    res.send(script);
  });

  router.use('/docs/assets', (req, _res, next) => (SERVED.has(req.path.slice(1)) ? next() : next('router')));
  // Asset names carry no version, so a day rather than `immutable`: an upgrade shows within a day.
  router.use('/docs/assets', express.static(assetsDir, { index: false, maxAge: '1d' }));
  return router;
}
