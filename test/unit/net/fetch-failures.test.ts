/** Reading fetch failures: Retry-After in both of its forms, and timeouts from any realm. */
import { isTimeoutError, parseRetryAfter } from '../../../src/net/fetch-failures.js';

it.each([
  ['30', 30_000],
  ['0', 0],
  ['Mon, 23 Nov 2026 07:00:10 GMT', 10_000],
  ['Mon, 23 Nov 2026 06:59:00 GMT', 0],
  ['soon', undefined],
  ['', undefined],
])('Retry-After %j is %s ms', (header, expected) => {
  expect(parseRetryAfter(header, Date.parse('2026-11-23T07:00:00Z'))).toBe(expected);
});

it('knows a timeout by its name, whatever realm made it', () => {
  expect(isTimeoutError(AbortSignal.timeout(0).reason ?? { name: 'TimeoutError' })).toBe(true);
  expect(isTimeoutError({ name: 'AbortError' })).toBe(true);
  expect(isTimeoutError(new TypeError('fetch failed'))).toBe(false);
  expect(isTimeoutError(null)).toBe(false);
});
