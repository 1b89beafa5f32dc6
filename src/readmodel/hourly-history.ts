/**
 * Each prediction market's hourly probability points for the last day, kept for its 24-hour move.
 * A market's points are one flat array of numbers (hour start, probability, observed at, ...),
 * which V8 stores as unboxed doubles: about 24 bytes a point against about 64 for an object per
 * point (10 000 markets with a day of history: 6 MB against 16; docs/performance-log.md, "Memory").
 */
const FIELDS = 3;

export class HourlyHistory {
  private readonly byMarket = new Map<string, number[]>();

  /** Points older than this before the newest are dropped as new hours arrive. */
  private readonly keptMs: number;

  constructor(keptMs: number) {
    this.keptMs = keptMs;
  }

  /** Loading: each market's points arrive oldest first. */
  add(marketId: string, hourStart: number, prob: number, observedAt: number): void {
    const points = this.byMarket.get(marketId);
    if (points) points.push(hourStart, prob, observedAt);
    else this.byMarket.set(marketId, [hourStart, prob, observedAt]);
  }

  /**
   * An observation: the newest one of its hour is the hour's point; an observation older than the
   * last hour changes nothing.
   */
  record(marketId: string, hourStart: number, prob: number, observedAt: number): void {
    const points = this.byMarket.get(marketId);
    if (!points) {
      this.add(marketId, hourStart, prob, observedAt);
      return;
    }
    const last = points.length - FIELDS;
    if (points[last] === hourStart) {
      if (points[last + 2]! <= observedAt) {
        points[last + 1] = prob;
        points[last + 2] = observedAt;
      }
      return;
    }
    if (points[last]! > hourStart) return;
    points.push(hourStart, prob, observedAt);
    let drop = 0;
    while (drop < points.length && points[drop]! < hourStart - this.keptMs) drop += FIELDS;
    if (drop > 0) points.splice(0, drop);
  }

  /**
   * What a move since `at` is measured from: the probability of the last point at or before `at`
   * (of the first point when none is that old), and whether the history reaches back to `at`.
   */
  reference(marketId: string, at: number): { reachesBack: boolean; prob: number } | undefined {
    const points = this.byMarket.get(marketId);
    if (!points) return undefined; // add and record never leave a market without points
    let index = 0;
    for (let i = 0; i < points.length && points[i]! <= at; i += FIELDS) index = i;
    return { reachesBack: points[0]! <= at, prob: points[index + 1]! };
  }
}
