/** FEEDS and the per-source settings: what each value selects, and clear errors for bad ones. */
import { ConfigError, loadConfig } from '../../../src/config/config.js';
import { LIVE_SOURCES, parseFeeds } from '../../../src/upstream/sources.js';

describe('parseFeeds', () => {
  it.each([
    ['demo', { demo: true, live: [] }],
    ['', { demo: true, live: [] }],
    ['live', { demo: false, live: [...LIVE_SOURCES] }],
    ['binance,polymarket', { demo: false, live: ['binance', 'polymarket'] }],
    [' Demo , KALSHI ', { demo: true, live: ['kalshi'] }],
    ['live,demo,binance', { demo: true, live: [...LIVE_SOURCES] }],
  ])('%j selects %j', (value, expected) => {
    expect(parseFeeds(value)).toEqual(expected);
  });

  it('names the unknown feeds and the valid ones', () => {
    expect(parseFeeds('binance,coinbase,ftx')).toEqual({
      error: `unknown feed "coinbase", "ftx"; use demo, live, or some of ${LIVE_SOURCES.join(', ')}`,
    });
  });
});

describe('loadConfig', () => {
  it('reads <SOURCE>_BASE_URL and <SOURCE>_POLL_MS per source', () => {
    const config = loadConfig({ FEEDS: 'kraken', KRAKEN_BASE_URL: 'http://127.0.0.1:9/proxy', KRAKEN_POLL_MS: '120000' });
    expect(config.feeds).toEqual({ demo: false, live: ['kraken'] });
    expect(config.upstream.sources.kraken).toEqual({ baseUrl: 'http://127.0.0.1:9/proxy', pollMs: 120_000 });
    expect(config.upstream.sources.binance).toEqual({ baseUrl: undefined, pollMs: undefined });
    expect(config.upstream.timeoutMs).toBe(10_000);
  });

  it('reads the tracked bounds of the paged sources, Kalshi’s selection and a fixed page gap', () => {
    const config = loadConfig({
      POLYMARKET_MAX_MARKETS: '2000',
      KALSHI_SERIES: ' kxncaambgame, KXMARMAD,,kxncaambgame ',
      KALSHI_EVENTS: 'KXNCAAMBGAME-26MAR19SIEDUKE',
      UPSTREAM_PAGE_GAP_MS: '0',
    });
    expect(config.upstream.sources.polymarket.maxMarkets).toBe(2_000);
    expect(config.upstream.sources.manifold.maxMarkets).toBeUndefined();
    expect(config.upstream.kalshi).toEqual({ series: ['KXNCAAMBGAME', 'KXMARMAD'], events: ['KXNCAAMBGAME-26MAR19SIEDUKE'] });
    expect(config.upstream.pageGapMs).toBe(0);
    // Unset: the connectors' own defaults, and the pages spread over the interval.
    expect(loadConfig({}).upstream).toMatchObject({ kalshi: { series: [], events: [] }, pageGapMs: undefined });
  });

  it.each([
    [{ KALSHI_MAX_MARKETS: '0' }, /KALSHI_MAX_MARKETS/],
    [{ MANIFOLD_MAX_MARKETS: 'all' }, /MANIFOLD_MAX_MARKETS/],
    [{ KALSHI_SERIES: 'KXNCAAMBGAME;DROP TABLE' }, /KALSHI_SERIES: a comma-separated list of Kalshi tickers/],
    [{ UPSTREAM_PAGE_GAP_MS: '-1' }, /UPSTREAM_PAGE_GAP_MS/],
    [{ FEEDS: 'nasdaq' }, /FEEDS: unknown feed "nasdaq"/],
    [{ BINANCE_BASE_URL: 'not a url' }, /BINANCE_BASE_URL/],
    [{ POLYMARKET_POLL_MS: '-5' }, /POLYMARKET_POLL_MS/],
    [{ UPSTREAM_TIMEOUT_MS: 'soon' }, /UPSTREAM_TIMEOUT_MS/],
  ])('refuses %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
