/** What a morning brief is written from, and what writes it. */

/** One of the most active markets, as the brief sees it. */
export interface BriefMarket {
  question: string;
  /** Fraction 0..1. */
  prob: number;
  volume24h: number;
  source: string;
  /** Points moved over the last 24 hours; null when there is not a day of history yet. */
  move24hPts: number | null;
}

/**
 * One of the largest moves of the last 24 hours, of more than the movement alerts' 5 points: the
 * same 24-hour figure as the market list (`move24hPts`), so the brief says one number per fact.
 */
export interface BriefMovement {
  question: string;
  /** Fraction 0..1, now. */
  prob: number;
  /** Points moved over the last 24 hours. */
  move24hPts: number;
}

export interface BriefInput {
  /** UTC date, YYYY-MM-DD. */
  date: string;
  /** Most active first. */
  markets: BriefMarket[];
  /** Largest first. */
  movements: BriefMovement[];
}

/** Turns the facts into text. Throws when it cannot; the caller decides what to fall back to. */
export interface BriefWriter {
  /** Stored with the brief: `builtin` or the model's name. */
  readonly name: string;
  write(input: BriefInput): Promise<string>;
}
