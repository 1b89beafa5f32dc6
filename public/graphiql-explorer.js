/*
 * The built-in GraphiQL of market-gateway, for networks without internet access: React, GraphiQL and
 * this file are served by the gateway itself (/graphiql/assets). It asks for the API key first (kept
 * in the tab's session storage only, never in local storage or the URL) and checks it, then renders
 * GraphiQL, whose first request (the schema) carries it. Queries and mutations are POSTed to
 * /graphql with the key and the headers of the header editor (which win); subscriptions go over
 * WebSocket (graphql-transport-ws) with the Authorization header as connection parameter. A link
 * with ?headers= carrying an Authorization header needs no form.
 */
(() => {
  const endpoint = new URL('/graphql', location.href).href;
  const wsEndpoint = endpoint.replace(/^http/, 'ws');
  const params = new URLSearchParams(location.search);

  /** One subscription over its own WebSocket, as an async iterable of results. */
  function subscribe(body, headers) {
    const socket = new WebSocket(wsEndpoint, 'graphql-transport-ws');
    const queue = [];
    let wake;
    let done = false;
    const push = (item) => {
      queue.push(item);
      if (wake) wake();
    };
    socket.onopen = () => socket.send(JSON.stringify({ type: 'connection_init', payload: headers }));
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === 'connection_ack') socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: body }));
      else if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
      else if (message.type === 'next') push({ value: message.payload });
      else if (message.type === 'error') push({ value: { errors: message.payload } });
      else if (message.type === 'complete') push({ end: true });
    };
    socket.onclose = (event) => push(event.code === 1000 ? { end: true } : { value: { errors: [{ message: `connection closed: ${event.code} ${event.reason}` }] }, end: true });
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      async next() {
        for (;;) {
          if (done) return { done: true, value: undefined };
          const item = queue.shift();
          if (item) {
            if (item.end && item.value === undefined) {
              done = true;
              return { done: true, value: undefined };
            }
            if (item.end) done = true;
            return { done: false, value: item.value };
          }
          await new Promise((resolve) => {
            wake = resolve;
          });
          wake = undefined;
        }
      },
      async return() {
        done = true;
        socket.close(1000);
        return { done: true, value: undefined };
      },
    };
  }

  const isSubscription = (query, operationName) => {
    const stripped = query.replace(/#[^\n]*/g, '');
    const named = operationName ? new RegExp(`subscription\\s+${operationName}\\b`) : /^\s*subscription\b/m;
    return named.test(stripped) || /^\s*subscription\b/.test(stripped.trim());
  };

  const KEY_ITEM = 'market-gateway.graphiql.key';
  const storedKey = () => sessionStorage.getItem(KEY_ITEM);
  const linkHeaders = () => {
    try {
      return params.has('headers') ? JSON.parse(params.get('headers')) : {};
    } catch {
      return {};
    }
  };
  const hasAuthorization = (headers) => Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');

  async function fetcher(body, options) {
    const key = storedKey();
    const editor = (options && options.headers) || {};
    const headers = { ...(key && !hasAuthorization(editor) ? { Authorization: `Bearer ${key}` } : {}), ...editor };
    if (isSubscription(body.query || '', body.operationName)) return subscribe(body, headers);
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...headers },
      body: JSON.stringify(body),
    });
    return response.json();
  }

  function showExplorer() {
    document.getElementById('key-form').hidden = true;
    document.getElementById('explorer').hidden = false;
    const key = storedKey();
    document.getElementById('key-shown').textContent = key ? `Key ${key.slice(0, 10)}… (this tab only)` : 'Key from the link';
    // A link with ?query= (and ?headers=) opens that operation, whatever the last session left.
    const root = ReactDOM.createRoot(document.getElementById('graphiql'));
    root.render(
      React.createElement(GraphiQL, {
        fetcher,
        defaultQuery: '{ viewer { accountId marketDataPlan predictionPlan } }',
        defaultHeaders: '{}',
        ...(params.has('query') ? { query: params.get('query') } : {}),
        ...(params.has('headers') ? { headers: params.get('headers') } : {}),
        headerEditorEnabled: true,
        shouldPersistHeaders: false,
      }),
    );
  }

  /** The key form: a key is checked with one request before GraphiQL sends anything with it. */
  function askForKey() {
    const form = document.getElementById('key-form');
    const input = document.getElementById('api-key');
    const error = document.getElementById('key-error');
    form.hidden = false;
    document.getElementById('explorer').hidden = true;
    input.focus();
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const key = input.value.trim();
      error.textContent = '';
      let answer;
      try {
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({ query: '{ __typename }' }),
        });
        answer = await response.json();
      } catch {
        error.textContent = 'The gateway did not answer; try again.';
        return;
      }
      if (answer.errors && answer.errors.length > 0) {
        error.textContent = answer.errors[0].message;
        return;
      }
      sessionStorage.setItem(KEY_ITEM, key);
      input.value = '';
      showExplorer();
    });
  }

  document.getElementById('change-key').addEventListener('click', () => {
    sessionStorage.removeItem(KEY_ITEM);
    location.reload();
  });

  if (storedKey() || hasAuthorization(linkHeaders())) showExplorer();
  else askForKey();
})();
