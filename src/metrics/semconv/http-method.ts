/** `http.request.method` as the conventions bound it: the known methods, every other one `_OTHER`. */
const KNOWN = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH', 'QUERY']);

export const methodOf = (method: string | undefined): string => (method && KNOWN.has(method) ? method : '_OTHER');
