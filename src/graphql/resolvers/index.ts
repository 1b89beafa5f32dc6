import { mergeResolvers } from '@graphql-tools/merge';
import {
  AlertKindValues,
  AlertStatusValues,
  IntervalValues,
  LinkDeciderValues,
  LinkImplicationValues,
  MarketRelationValues,
  MarketStatusValues,
  MarketTypeValues,
  PredictionSignalValues,
  PriceClaimKindValues,
  PriceComparatorValues,
  SpreadCrossingValues,
  TrendValues,
  WebhookDeliveryStatusValues,
  WebhookEventTypeValues,
} from '../../domain/graphql-enums.js';
import { USAGE_DAYS } from '../../domain/limits.js';
import { DAY_MS, utcDate } from '../../domain/time.js';
import type { Resolvers } from '../generated/resolvers.js';
import { DateScalar, DateTimeScalar } from '../scalars.js';
import { assertIntInRange } from './arguments.js';
import { marketDataResolvers } from './market-data.js';
import { linkResolvers } from './links.js';
import { predictionResolvers } from './prediction.js';
import { subscriptionResolvers } from './subscriptions.js';
import { webhookResolvers } from './webhooks.js';

const shared: Resolvers = {
  DateTime: DateTimeScalar,
  Date: DateScalar,
  // Enum internal values: resolvers and the domain speak the REST spellings.
  MarketType: MarketTypeValues,
  MarketStatus: MarketStatusValues,
  Interval: IntervalValues,
  Trend: TrendValues,
  PriceAlertKind: AlertKindValues,
  PriceAlertStatus: AlertStatusValues,
  PredictionSignal: PredictionSignalValues,
  WebhookEventType: WebhookEventTypeValues,
  WebhookDeliveryStatus: WebhookDeliveryStatusValues,
  PriceAlertEventType: { TRIGGERED: 'triggered', EXPIRED: 'expired' },
  MarketRelation: MarketRelationValues,
  LinkDecider: LinkDeciderValues,
  LinkImplication: LinkImplicationValues,
  PriceComparator: PriceComparatorValues,
  PriceClaimKind: PriceClaimKindValues,
  SpreadCrossing: SpreadCrossingValues,
  Query: {
    viewer: (_root, _args, { principal }) => principal!.account,
  },
  Viewer: {
    accountId: (a) => a.id,
    usage: async (a, { days }, { services }) => {
      assertIntInRange('days', days, USAGE_DAYS.min, USAGE_DAYS.max);
      const since = utcDate(services.now() - (days - 1) * DAY_MS);
      const rows = await services.store.usage.byDayAndRoute(a.id, since);
      return rows.map((row) => ({ date: row.day, route: row.route, requests: row.requests }));
    },
  },
};

export const resolvers = mergeResolvers([
  shared,
  marketDataResolvers,
  predictionResolvers,
  linkResolvers,
  webhookResolvers,
  subscriptionResolvers,
]) as Resolvers;
