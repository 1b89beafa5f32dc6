/** Variant B (prediction markets, `ok` envelope, Pro plan): the route table of GET /api/v1/markets, /brief, /alerts. */
import { z } from 'zod';
import { MOVEMENT_ALERTS_LIMIT, TOP_MARKETS } from '../../domain/limits.js';
import { PREDICTION_SIGNALS } from '../../domain/prediction.js';
import { PredictionSignalValues } from '../../domain/graphql-enums.js';
import { LatestMovementAlertsDocument, MorningBriefDocument, TopPredictionMarketsDocument } from '../generated/operations.js';
import { intParam } from '../params.js';
import { utcDate } from '../../domain/time.js';
import { defineRoute, type RouteDefinition } from '../route-table.js';
import { DATA_VERSIONS } from '../../graphql/answers/kept-answers.js';

const timestamp = z.string().describe('ISO 8601 UTC with milliseconds, e.g. 2026-11-22T06:00:00.000Z');

const MarketSchema = z.object({
  question: z.string(),
  prob: z.number().min(0).max(1).describe('probability of YES as a fraction, at most 4 decimals'),
  prob_pct: z.number().int().min(0).max(100).describe('round(prob * 100)'),
  volume_24h: z.number().int().min(0).describe("24-hour volume in the platform's unit, whole"),
  signal: z.enum(PREDICTION_SIGNALS).describe('hot, watch, rising or wait; docs/prediction-method.md says how it is scored'),
  url: z.string().describe('the market on its platform'),
  source: z.string().describe('platform, lower case: polymarket, kalshi, manifold or demo'),
});

const AlertSchema = z.object({
  question: z.string(),
  old_pct: z.number().describe('baseline probability in percent'),
  new_pct: z.number().describe('new probability in percent'),
  delta_pts: z.number().describe('new_pct - old_pct, one decimal; more than 5 in absolute value'),
  type: z.literal('movement'),
  detected_at: timestamp,
});

export const predictionRoutes: RouteDefinition[] = [
  defineRoute({
    path: '/markets',
    // The ranking also moves with the hour (24-hour moves are read from hourly history).
    cache: { version: DATA_VERSIONS.predictions, maxAgeSeconds: 5 },
    summary: 'The 50 most active prediction markets, scored',
    description: `The ${TOP_MARKETS} markets with the largest 24-hour volume (all of them when fewer are tracked), volume descending, ties by question ascending. Pro plan.`,
    params: [],
    operation: TopPredictionMarketsDocument,
    variables: () => ({}),
    reshape: (data) => ({
      ok: true,
      count: data.predictionMarkets.count,
      markets: data.predictionMarkets.items.map((m) => ({
        question: m.question,
        prob: m.probability,
        prob_pct: m.probabilityPct,
        volume_24h: m.volume24h,
        signal: PredictionSignalValues[m.signal],
        url: m.url,
        source: m.source,
      })),
    }),
    responseSchema: z.object({ ok: z.literal(true), count: z.number().int(), markets: z.array(MarketSchema) }),
  }),

  defineRoute({
    path: '/brief',
    cache: { version: (services, now) => `${utcDate(now)}|${services.predictions.version}`, maxAgeSeconds: 5 },
    summary: "Today's morning brief",
    description:
      'One brief per UTC date, written from the most active markets and the largest movements, stored and served unchanged for the rest of the date (generated_at is stable). Pro plan.',
    params: [],
    operation: MorningBriefDocument,
    variables: () => ({}),
    reshape: (data) => ({
      ok: true,
      date: data.morningBrief.date,
      brief: data.morningBrief.brief,
      generated_at: data.morningBrief.generatedAt,
    }),
    responseSchema: z.object({
      ok: z.literal(true),
      date: z.string().describe('UTC date, YYYY-MM-DD'),
      brief: z.string(),
      generated_at: timestamp,
    }),
  }),

  defineRoute({
    path: '/alerts',
    cache: { version: DATA_VERSIONS.predictions, maxAgeSeconds: 5 },
    summary: 'The latest movement alerts',
    description: 'Probability movements of more than 5 points, newest detected first. Pro plan.',
    params: [intParam('limit', { ...MOVEMENT_ALERTS_LIMIT, clampAbove: true }, 'number of alerts')],
    operation: LatestMovementAlertsDocument,
    variables: (p) => ({ limit: p.limit }),
    reshape: (data) => ({
      ok: true,
      count: data.movementAlerts.count,
      alerts: data.movementAlerts.items.map((a) => ({
        question: a.question,
        old_pct: a.oldPct,
        new_pct: a.newPct,
        delta_pts: a.deltaPts,
        type: a.type,
        detected_at: a.detectedAt,
      })),
    }),
    responseSchema: z.object({ ok: z.literal(true), count: z.number().int(), alerts: z.array(AlertSchema) }),
  }),
];
