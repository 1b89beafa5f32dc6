/** What an unknown symbol's 404 suggests: the markets of that base, the pair spelled right, the base in another quote. */
import { suggestSymbols, unknownSymbolsMessage } from '../../../src/domain/symbols.js';

const KNOWN = ['AAPL/USD', 'BTC/EUR', 'BTC/USD', 'ETH/USD', 'EUR/USD'];

it.each([
  ['BTC', ['BTC/EUR', 'BTC/USD']],
  ['btcusd', ['BTC/USD']],
  ['BTC-USD', ['BTC/USD', 'BTC/EUR']],
  ['BTC/GBP', ['BTC/EUR', 'BTC/USD']],
  ['EUR', ['EUR/USD']],
  ['NOPE', []],
  ['', []],
])('%s -> %j', (asked, meant) => {
  expect(suggestSymbols(asked, KNOWN)).toEqual(meant);
});

it('names every unknown symbol, with a suggestion where there is one', () => {
  expect(unknownSymbolsMessage(['BTC'], KNOWN)).toBe('unknown symbol: BTC (did you mean BTC/EUR or BTC/USD?)');
  expect(unknownSymbolsMessage(['XRP', 'ETH'], KNOWN)).toBe('unknown symbols: XRP, ETH (did you mean ETH/USD?)');
});
