/** What can go wrong with an upstream, classified once so the scheduler knows whether to retry. */

type UpstreamFailure = 'timeout' | 'network' | 'http' | 'rate_limited' | 'circuit_open' | 'parse' | 'schema';

export class UpstreamError extends Error {
  readonly source: string;
  readonly failure: UpstreamFailure;
  readonly details: { status?: number; retryAfterMs?: number };

  constructor(source: string, failure: UpstreamFailure, message: string, details: { status?: number; retryAfterMs?: number } = {}) {
    super(`${source}: ${message}`);
    this.source = source;
    this.failure = failure;
    this.details = details;
    this.name = 'UpstreamError';
  }

  /**
   * Worth another try within the poll: the upstream may answer differently. A schema change will
   * not; a rate limit or an open circuit refuses every request until its time is up.
   */
  get retryable(): boolean {
    if (this.failure === 'schema' || this.failure === 'rate_limited' || this.failure === 'circuit_open') return false;
    return !(this.failure === 'http' && this.details.status !== undefined && this.details.status < 500);
  }
}
