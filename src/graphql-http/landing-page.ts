/**
 * The landing page of GET /graphql in a browser, outside production: Apollo Sandbox embedded from
 * Apollo's CDN, as Apollo Server's own page does; when its script cannot load (no internet, as on
 * many internal networks), the page says so and points to the gateway's own GraphiQL (/graphiql),
 * which is also linked at the top.
 */
import type { ApolloServerPlugin } from '@apollo/server';

export const EXPLORER_PATH = '/graphiql';

/**
 * The landing page of GET /graphql outside production: Apollo Sandbox embedded from Apollo's CDN,
 * and, if its script cannot load, a pointer to the built-in GraphiQL (always linked at the top).
 */
function sandboxLandingPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>market-gateway GraphQL</title>
<style>
  body { margin: 0; font-family: system-ui, sans-serif; }
  #bar { padding: 6px 12px; font-size: 13px; background: #f4f6f8; border-bottom: 1px solid #dde; }
  #offline { display: none; padding: 24px; font-size: 16px; }
  #sandbox { height: calc(100vh - 32px); width: 100%; }
</style>
</head>
<body>
<div id="bar">market-gateway GraphQL. No internet here? Use the <a href="${EXPLORER_PATH}">built-in GraphiQL</a>.</div>
<div id="offline">
  <p>Apollo Sandbox could not be loaded from Apollo's servers (this network may have no internet access).</p>
  <p>Open the <a id="offline-link" href="${EXPLORER_PATH}">built-in GraphiQL</a>: it is served by this gateway, with a header editor for your key and subscriptions.</p>
</div>
<div id="sandbox"></div>
<script>
  function mgwOffline() {
    document.getElementById('offline').style.display = 'block';
    document.getElementById('sandbox').style.display = 'none';
  }
</script>
<script src="https://embeddable-sandbox.cdn.apollographql.com/_latest/embeddable-sandbox.umd.production.min.js" onerror="mgwOffline()"></script>
<script>
  if (window.EmbeddedSandbox) new window.EmbeddedSandbox({ target: '#sandbox', initialEndpoint: location.href.split('?')[0] });
  else mgwOffline();
</script>
</body>
</html>`;
}

/** Apollo's landing-page hook, answering with the page above. */
export function sandboxLandingPagePlugin<T extends object>(): ApolloServerPlugin<T> {
  return {
    async serverWillStart() {
      return {
        async renderLandingPage() {
          return { html: sandboxLandingPage() };
        },
      };
    },
  };
}
