/** The two legacy APIs, one listener each: A, market data (`success` envelope); B, prediction markets (`ok` envelope). */
export type Variant = 'A' | 'B';
