/** A quote written by hand through the real ingest path (store first, then the read models and their change notices). */
import type { Service } from '../../src/app.js';

export async function writeQuote(service: Service, symbol: string, price: number, observedAt: number): Promise<void> {
  const quote = service.markets.quote(symbol)!;
  await service.ingest.accept({
    kind: 'market-data',
    markets: [],
    quotes: [{ ...quote, price, observedAt }],
    candles: [],
    problems: { invalid: 0, examples: [] },
    skipped: {},
  });
}
