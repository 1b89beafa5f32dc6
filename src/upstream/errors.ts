/** What can go wrong with an upstream, classified once so the scheduler knows whether to retry. */

export type UpstreamFailure = 'timeout' | 'network' | 'http' | 'rate_limited' | 'parse' | 'schema';

export class UpstreamError extends Error {
  constructor(
    readonly source: string,
    readonly failure: UpstreamFailure,
    message: string,
    readonly details: { status?: number; retryAfterMs?: number } = {},
  ) {
    super(`${source}: ${message}`);
    this.name = 'UpstreamError';
  }

  /** Worth another try soon: the upstream may answer differently. A schema change will not. */
  get retryable(): boolean {
    return this.failure !== 'schema' && !(this.failure === 'http' && this.details.status !== undefined && this.details.status < 500);
  }
}
