/**
 * Applies D11 after each ingest batch: every active alert is checked against the new quotes
 * (and, for `signal` alerts, the 1h brief signals), and moved to triggered/expired exactly once:
 * the store's conditional update makes a second evaluator (or instance) a no-op. Each transition
 * writes its webhook event in the same transaction, for the delivery worker to send.
 */
import type { Logger } from 'pino';
import type { BriefService } from '../analytics/brief-service.js';
import type { PriceAlert } from '../domain/account.js';
import type { Quote } from '../domain/market.js';
import type { PriceAlertRepository } from '../store/price-alerts.js';
import { priceAlertEvent } from '../webhooks/events.js';
import { evaluatePriceAlert } from './evaluate.js';
import { inSpan } from '../telemetry/tracing.js';

/** Signal alerts watch the default brief interval. */
const SIGNAL_INTERVAL = '1h' as const;

export function createAlertEvaluator(deps: {
  alerts: PriceAlertRepository;
  briefs: BriefService;
  logger: Logger;
  onTransition?: (alert: PriceAlert, status: 'triggered' | 'expired', at: number) => void;
}) {
  return {
    /** Returns how many alerts changed state; a span of the work that called it when traced. */
    evaluate(quotes: readonly Quote[], now: number): Promise<number> {
      return inSpan(
        'evaluate price alerts',
        () => ({ 'mgw.quotes': quotes.length }),
        async (span) => {
          const changed = await evaluate(quotes, now);
          span?.set({ 'mgw.alerts': changed });
          return changed;
        },
      );
    },
  };

  async function evaluate(quotes: readonly Quote[], now: number): Promise<number> {
    const active = await deps.alerts.listActive();
    if (active.length === 0) return 0;
    const quoteBySymbol = new Map(quotes.map((q) => [q.symbol, q]));
    const signalSymbols = [...new Set(active.filter((a) => a.kind === 'signal' && quoteBySymbol.has(a.symbol)).map((a) => a.symbol))];
    const analyses = signalSymbols.length > 0 ? await deps.briefs.analyze(signalSymbols, SIGNAL_INTERVAL, now) : new Map();

    let changed = 0;
    for (const alert of active) {
      const quote = quoteBySymbol.get(alert.symbol);
      const transition = quote
        ? evaluatePriceAlert(alert, { quote, signals: analyses.get(alert.symbol)?.signals ?? null }, now)
        : alert.expiresAt !== null && alert.expiresAt <= now
          ? ({ status: 'expired', at: now } as const)
          : null;
      if (!transition) continue;
      // The webhook event is written with the transition (the outbox), or not at all.
      const event = priceAlertEvent(alert, transition.status, transition.at, quote ?? null);
      if (await deps.alerts.transition(alert.id, transition.status, transition.at, event)) {
        changed++;
        deps.logger.info({ alertId: alert.id, symbol: alert.symbol, status: transition.status }, 'price alert changed state');
        deps.onTransition?.(alert, transition.status, transition.at);
      }
    }
    return changed;
  }
}

export type AlertEvaluator = ReturnType<typeof createAlertEvaluator>;
