/** Headers on every answer of both listeners. No HSTS here: TLS ends at the load balancer, which should send it. */
export const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'no-referrer'],
  ['Cross-Origin-Resource-Policy', 'same-site'],
];

/** For answers that are JSON only (all but the two HTML pages, /docs and Sandbox). */
export const JSON_ONLY_CSP = "default-src 'none'; frame-ancestors 'none'";
