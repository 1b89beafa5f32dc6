/** The error envelopes of D5, as the contract tests of both variants check them. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function expectErrorEnvelope(body: unknown, status: number, type: string, variant: 'A' | 'B' = 'A') {
  const detail = { code: status, type, message: expect.any(String) };
  expect(body).toEqual(variant === 'A' ? { success: false, error: detail } : { ok: false, error: detail });
  const message = (body as { error: { message: string } }).error.message;
  expect(message.length).toBeGreaterThan(5);
  expect(message).not.toMatch(/mgw_[0-9A-Za-z]{8}/); // never echoes a key
  expect(message).not.toMatch(/\n\s+at |\/src\/|\.ts:/); // no stack, no file path
}
