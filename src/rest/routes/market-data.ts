/** Variant A (market data, `success` envelope): the route table of GET /api/v1/markets, /brief, /alerts. */
import { z } from 'zod';
import { ALERT_KINDS, ALERT_STATUSES } from '../../domain/account.js';
import { AlertKindValues, AlertStatusValues, IntervalValues, MarketStatusValues, MarketTypeValues, TrendValues } from '../../domain/graphql-enums.js';
import { BRIEF_LIMIT, MARKETS_PAGE } from '../../domain/limits.js';
import { INTERVALS, MARKET_STATUSES, MARKET_TYPES } from '../../domain/market.js';
import { parseSymbolList, normalizeSymbol } from '../../domain/symbols.js';
import { graphqlEnumName } from '../../domain/graphql-enums.js';
import { AccountAlertsDocument, BriefDocument, MarketsPageDocument } from '../generated/operations.js';
import { enumParam, intParam, stringParam } from '../params.js';
import { DATA_VERSIONS, type RouteCachePolicy } from '../../graphql/answers/kept-answers.js';
import { defineRoute, type RouteDefinition } from '../route-table.js';

/**
 * Quotes and candles change only when ingest writes (the version), and a market's status also
 * with time (staleness, D7): a 5-second bucket bounds how late a status may flip. Clients may
 * reuse an answer for 2 s, the demo feed's tick.
 */
const marketDataCache: RouteCachePolicy = { version: DATA_VERSIONS.markets, maxAgeSeconds: 2 };

/**
 * An account's alerts change only when one is created, cancelled, triggered or expires: the
 * account's alerts version (in the store, whoever made the change). Answers are per account.
 */
const accountAlertsCache: RouteCachePolicy = { version: DATA_VERSIONS.accountAlerts, perAccount: true, maxAgeSeconds: 0 };

export const timestamp = z.string().describe('ISO 8601 UTC with milliseconds, e.g. 2026-11-22T06:00:00.000Z');
const nullableNumber = z.number().nullable();

const MarketSchema = z.object({
  symbol: z.string().describe('<BASE>/<QUOTE>, e.g. BTC/USD'),
  name: z.string(),
  status: z.enum(MARKET_STATUSES),
  type: z.enum(MARKET_TYPES),
  price: nullableNumber.describe('latest price in the quote currency; null before the first quote'),
  change_24h: nullableNumber.describe('percent change over 24 hours (-2.35 means -2.35 %)'),
});

const IndicatorsSchema = z.object({
  rsi_14: nullableNumber,
  sma_20: nullableNumber,
  sma_50: nullableNumber,
  ema_12: nullableNumber,
  ema_26: nullableNumber,
  macd: nullableNumber,
  macd_signal: nullableNumber,
  macd_histogram: nullableNumber,
  bb_upper: nullableNumber,
  bb_middle: nullableNumber,
  bb_lower: nullableNumber,
  atr_14: nullableNumber,
});

const BriefMarketSchema = z.object({
  symbol: z.string(),
  trend: z.enum(['bullish', 'bearish', 'neutral']),
  confidence: z.number().min(0).max(1),
  price: z.number(),
  change: z.number().describe('percent change of the close over the last interval'),
  volume: z.number().describe('volume of the latest candle'),
  signals: z.array(z.string()).describe('named signals firing now, e.g. rsi_overbought'),
  indicators: IndicatorsSchema,
});

export const AlertSchema = z.object({
  id: z.string(),
  status: z.enum(ALERT_STATUSES),
  triggered_at: timestamp.nullable(),
  symbol: z.string(),
  kind: z.enum(ALERT_KINDS),
  threshold: nullableNumber,
  signal: z.string().nullable(),
  created_at: timestamp,
  expires_at: timestamp.nullable(),
});

const symbolsParam = stringParam('symbols', {
  required: true,
  description: 'comma-separated symbols, at most 100, e.g. BTC/USD,ETH/USD',
  example: 'BTC/USD,ETH/USD',
  maxLength: 4_000,
});

export const marketDataRoutes: RouteDefinition[] = [
  defineRoute({
    path: '/markets',
    cache: marketDataCache,
    summary: 'List the available markets',
    description: 'Markets ordered by symbol ascending; `total` counts every market matching the filters. Every plan.',
    params: [
      enumParam('type', MARKET_TYPES, 'filter by market type'),
      enumParam('status', MARKET_STATUSES, 'filter by status'),
      intParam('limit', MARKETS_PAGE, 'page size'),
      intParam('offset', { min: 0, default: 0 }, 'markets to skip'),
    ],
    operation: MarketsPageDocument,
    variables: (p) => ({
      filter: {
        type: p.type ? graphqlEnumName(MarketTypeValues, p.type)! : null,
        status: p.status ? graphqlEnumName(MarketStatusValues, p.status)! : null,
      },
      limit: p.limit,
      offset: p.offset,
    }),
    reshape: (data) => ({
      success: true,
      data: data.assetMarkets.items.map((m) => ({
        symbol: m.symbol,
        name: m.name,
        status: MarketStatusValues[m.status],
        type: MarketTypeValues[m.type],
        price: m.price ?? null,
        change_24h: m.change24h ?? null,
      })),
      total: data.assetMarkets.total,
    }),
    responseSchema: z.object({ success: z.literal(true), data: z.array(MarketSchema), total: z.number().int() }),
  }),

  defineRoute({
    path: '/brief',
    cache: marketDataCache,
    summary: 'Condensed real-time brief for the requested symbols',
    description:
      'Trend, confidence, price, change, volume, signals and indicators per symbol, from candles of the interval. ' +
      'Symbols are matched case-insensitively and answered upper case; an unknown symbol is a 404. Pro and Enterprise.',
    params: [
      symbolsParam,
      intParam('limit', BRIEF_LIMIT, 'how many of the requested symbols are answered (the first ones)'),
      enumParam('interval', INTERVALS, 'candle interval', '1h'),
    ],
    operation: BriefDocument,
    variables: (p) => ({
      symbols: parseSymbolList([p.symbols]),
      interval: graphqlEnumName(IntervalValues, p.interval)!,
      limit: p.limit,
    }),
    reshape: (data) => ({
      success: true,
      data: {
        interval: IntervalValues[data.assetBrief.interval],
        markets: data.assetBrief.markets.map((m) => ({
          symbol: m.symbol,
          trend: TrendValues[m.trend],
          confidence: m.confidence,
          price: m.price,
          change: m.change,
          volume: m.volume,
          signals: m.signals,
          indicators: {
            rsi_14: m.indicators.rsi14 ?? null,
            sma_20: m.indicators.sma20 ?? null,
            sma_50: m.indicators.sma50 ?? null,
            ema_12: m.indicators.ema12 ?? null,
            ema_26: m.indicators.ema26 ?? null,
            macd: m.indicators.macd ?? null,
            macd_signal: m.indicators.macdSignal ?? null,
            macd_histogram: m.indicators.macdHistogram ?? null,
            bb_upper: m.indicators.bollingerUpper ?? null,
            bb_middle: m.indicators.bollingerMiddle ?? null,
            bb_lower: m.indicators.bollingerLower ?? null,
            atr_14: m.indicators.atr14 ?? null,
          },
        })),
      },
    }),
    responseSchema: z.object({
      success: z.literal(true),
      data: z.object({ interval: z.enum(INTERVALS), markets: z.array(BriefMarketSchema) }),
    }),
  }),

  defineRoute({
    path: '/alerts',
    cache: accountAlertsCache,
    summary: "The alerts configured on the caller's account",
    description: 'Newest created first; `total` counts all that match. Pro and Enterprise.',
    params: [
      enumParam('status', ALERT_STATUSES, 'filter by status'),
      stringParam('symbol', { required: false, description: 'filter by symbol (case-insensitive)', maxLength: 64 }),
    ],
    operation: AccountAlertsDocument,
    variables: (p) => ({
      status: p.status ? graphqlEnumName(AlertStatusValues, p.status)! : null,
      symbol: p.symbol ? normalizeSymbol(p.symbol) : null,
    }),
    reshape: (data) => ({
      success: true,
      data: data.priceAlerts.items.map((a) => ({
        id: a.id,
        status: AlertStatusValues[a.status],
        triggered_at: a.triggeredAt ?? null,
        symbol: a.symbol,
        kind: AlertKindValues[a.kind],
        threshold: a.threshold ?? null,
        signal: a.signal ?? null,
        created_at: a.createdAt,
        expires_at: a.expiresAt ?? null,
      })),
      total: data.priceAlerts.total,
    }),
    responseSchema: z.object({ success: z.literal(true), data: z.array(AlertSchema), total: z.number().int() }),
  }),
];
