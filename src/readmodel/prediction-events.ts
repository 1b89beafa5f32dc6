/**
 * Prediction events as requests and subscriptions read them: the SAME/INVERSE links from the store
 * (where the linker and the operator write them, so every instance sees a decision at once), the
 * probabilities from the prediction read model. Spread changes are computed only while someone
 * subscribes, after each batch of probabilities, with the links re-read at most every `linksMaxAgeMs`;
 * a subscriber is told of changes after it subscribed, never of the spreads as they stood.
 */
import { type EventLink, type EventMarket, groupEvents, type PredictionEventModel } from '../links/events.js';
import type { MarketLinkRepository } from '../store/market-links.js';
import { Listeners } from './listeners.js';
import type { PredictionReadModel } from './prediction-read-model.js';

export interface SpreadChange {
  event: PredictionEventModel;
  /** The spread when last computed; 0 for a group new since then. */
  previousSpreadPts: number;
}

export type SpreadDirection = 'up' | 'down';

/** A change that crossed a subscriber's threshold, and which way. */
export interface SpreadCrossingChange extends SpreadChange {
  direction: SpreadDirection;
}

/** Which way a change crossed `threshold`, if it did: up to it or above, or back below it. */
export function crossing({ event, previousSpreadPts }: SpreadChange, threshold: number): SpreadDirection | undefined {
  if (previousSpreadPts < threshold && event.spreadPts >= threshold) return 'up';
  if (previousSpreadPts >= threshold && event.spreadPts < threshold) return 'down';
  return undefined;
}

interface PredictionEventsOptions {
  links: MarketLinkRepository;
  predictions: PredictionReadModel;
  now: () => number;
  linksMaxAgeMs?: number;
  /** Told when a computation of spreads failed (the store unreachable): the next batch tries again. */
  onError?: (error: unknown) => void;
}

export function createPredictionEvents({ links, predictions, now, linksMaxAgeMs = 10_000, onError }: PredictionEventsOptions) {
  const changes = new Listeners<readonly SpreadChange[]>();
  let cachedLinks: { at: number; links: EventLink[] } | undefined;
  /** The spreads last computed; undefined until the first computation after the first subscriber, which only sets them. */
  let spreads: Map<string, number> | undefined;
  let detach: (() => void) | undefined;
  let computing: Promise<void> | undefined;
  let again = false;

  const readLinks = (): Promise<EventLink[]> => links.settlingPairs();

  /** The active markets the read model holds, as the grouping reads them. */
  const marketOf =
    (at: number) =>
    (id: string): EventMarket | undefined => {
      const m = predictions.get(id);
      return m && predictions.isActive(m, at) ? { id: m.id, source: m.source, question: m.question, prob: m.prob, volume24h: m.volume24h } : undefined;
    };

  async function recomputeSpreads(): Promise<void> {
    const at = now();
    if (!cachedLinks || at - cachedLinks.at >= linksMaxAgeMs) cachedLinks = { at, links: await readLinks() };
    const events = groupEvents(cachedLinks.links, marketOf(at));
    const before = spreads;
    spreads = new Map(events.map((e) => [e.id, e.spreadPts]));
    if (!before) return;
    const changed = events.filter((e) => before.get(e.id) !== e.spreadPts).map((event) => ({ event, previousSpreadPts: before.get(event.id) ?? 0 }));
    if (changed.length > 0) changes.emit(changed);
  }

  /** One computation at a time; a batch arriving meanwhile asks for one more after it. */
  function schedule(): void {
    if (computing) {
      again = true;
      return;
    }
    computing = recomputeSpreads()
      .catch((error: unknown) => onError?.(error))
      .finally(() => {
        computing = undefined;
        if (again && detach) {
          again = false;
          schedule();
        }
      });
  }

  return {
    /** The groups now, busiest first, with at least `minVenues` venues. */
    async list(minVenues: number): Promise<PredictionEventModel[]> {
      const at = now();
      return groupEvents(await readLinks(), marketOf(at)).filter((e) => e.venues >= minVenues);
    },

    /** Told of the groups whose spread changed; listening starts the computation, the last listener gone stops it. */
    onSpreadChanges(listener: (changed: readonly SpreadChange[]) => void): () => void {
      const remove = changes.add(listener);
      if (!detach) {
        detach = predictions.onMarkets(schedule);
        schedule();
      }
      return () => {
        remove();
        if (changes.size === 0) {
          detach?.();
          detach = undefined;
          cachedLinks = undefined;
          spreads = undefined;
        }
      };
    },
  };
}

export type PredictionEvents = ReturnType<typeof createPredictionEvents>;
