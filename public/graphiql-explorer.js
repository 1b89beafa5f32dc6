/*
 * The built-in GraphiQL of market-gateway, for networks without internet access: React, GraphiQL and
 * this file are served by the gateway itself (/graphiql/assets). Queries and mutations are POSTed to
 * /graphql with the headers of the header editor; subscriptions go over WebSocket
 * (graphql-transport-ws) with the Authorization header as connection parameter.
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

  async function fetcher(body, options) {
    const headers = (options && options.headers) || {};
    if (isSubscription(body.query || '', body.operationName)) return subscribe(body, headers);
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...headers },
      body: JSON.stringify(body),
    });
    return response.json();
  }

  // A link with ?query= (and ?headers=) opens that operation, whatever the last session left.
  const root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(
    React.createElement(GraphiQL, {
      fetcher,
      defaultQuery: '{ viewer { accountId marketDataPlan predictionPlan } }',
      defaultHeaders: '{ "Authorization": "Bearer <your key>" }',
      ...(params.has('query') ? { query: params.get('query') } : {}),
      ...(params.has('headers') ? { headers: params.get('headers') } : {}),
      headerEditorEnabled: true,
      shouldPersistHeaders: false,
    }),
  );
})();
