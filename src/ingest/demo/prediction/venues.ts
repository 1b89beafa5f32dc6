/**
 * Two more demo venues, so a newcomer sees market links offline: `demo-exchange` words its markets as
 * an exchange does (a ticker, "If ..., then the market resolves to Yes.", strike fields) and
 * `demo-crowd` as a community site does. Some listings ask a `demo` market's question again (the same,
 * or with YES on the other side), some are near misses that are not the same contract. A listing's
 * probability follows its base market's, with a bias and a slow wobble of its own, so the venues
 * disagree by a few points as real ones do. The texts are what the judge reads: the links come out
 * of the real judge, nothing here says what they are.
 */
import type { MarketText } from '../../../domain/links.js';
import type { PredictionMarketMeta, ProbabilityObservation } from '../../../domain/prediction.js';
import { roundProb } from '../../../prediction/percent.js';
import { DEMO_SOURCE } from '../catalogue.js';
import { demoPredictionId } from './catalogue.js';

export const DEMO_EXCHANGE = 'demo-exchange';
export const DEMO_CROWD = 'demo-crowd';
const DEMO_URL = 'https://demo.market-gateway.local/';

interface Listing {
  venue: string;
  /** The venue's own id. */
  id: string;
  /** The `demo` market whose probability it follows. */
  base: string;
  question: string;
  rules: string;
  closeTime: string;
  yesSide?: string;
  strike?: MarketText['strike'];
  /** Its probability from the base market's: `p` for the same question, `1 - p` for YES on the other side. */
  follow: (p: number) => number;
  /** Its 24-hour volume as a share of the base market's. */
  volumeShare: number;
}

const same = (p: number) => p;
const otherSide = (p: number) => 1 - p;

/** Rules of `demo` markets that the generic sentence would say too vaguely for a judge. */
export const DEMO_BASE_RULES: Record<string, { rules: string; closeTime: string; yesSide?: string }> = {
  'btc-150k-2026': {
    rules:
      'This market will resolve to "Yes" if Bitcoin trades above $150,000 on Binance, Coinbase or Kraken at any time before December 31, 2026 11:59 PM ET. Otherwise, this market will resolve to "No".',
    closeTime: '2027-01-01T04:59:00Z',
  },
  'eth-5k-dec31-noon': {
    rules:
      'This market will resolve to "Yes" if the Binance 1 minute candle for ETH/USDT 12:00 in the ET timezone (noon) on December 31, 2026 has a final "Close" price above $5,000. Otherwise, this market will resolve to "No".',
    closeTime: '2026-12-31T17:00:00Z',
  },
  'nba-xmas-bos-okc': {
    rules:
      'In the upcoming NBA game, scheduled for December 25, 2026: if the Boston Celtics win, the market will resolve to "Boston Celtics". If the Oklahoma City Thunder win, the market will resolve to "Oklahoma City Thunder". If the game is postponed, this market will remain open until the game has been completed.',
    closeTime: '2026-12-26T04:00:00Z',
    yesSide: 'Boston Celtics',
  },
};

export const DEMO_LISTINGS: readonly Listing[] = [
  {
    venue: DEMO_EXCHANGE,
    id: 'KXBTCMAX-26DEC31-150000',
    base: 'btc-150k-2026',
    question: 'Will Bitcoin be above $150,000 before Dec 31, 2026?',
    rules:
      'If the price of Bitcoin is above $150,000.00 at any time before Dec 31, 2026 11:59 PM ET, then the market resolves to Yes. Settlement uses the CF Benchmarks Bitcoin Real-Time Index.',
    closeTime: '2027-01-01T04:59:00Z',
    follow: same,
    volumeShare: 0.3,
  },
  {
    venue: DEMO_CROWD,
    id: 'btc-175k-2026',
    base: 'btc-150k-2026',
    question: 'Will Bitcoin trade above $175,000 on a major exchange before December 31, 2026?',
    rules: 'Resolves YES if Bitcoin trades above $175,000 on Binance, Coinbase or Kraken at any time before December 31, 2026 11:59 PM ET.',
    closeTime: '2027-01-01T04:59:00Z',
    // A higher bar in the same window: less likely than the base, never more.
    follow: (p) => p * 0.55,
    volumeShare: 0.02,
  },
  {
    venue: DEMO_EXCHANGE,
    id: 'KXETHD-26DEC3112-T4999.99',
    base: 'eth-5k-dec31-noon',
    question: 'Ethereum price on Dec 31, 2026 at 12pm EST? — $5,000 or above',
    rules: 'If the CF Benchmarks Ether Real-Time Index is above 4999.99 at 12pm EST on Dec 31, 2026, then the market resolves to Yes.',
    closeTime: '2026-12-31T17:00:00Z',
    strike: { type: 'greater', floor: 4999.99, cap: null },
    follow: same,
    volumeShare: 0.4,
  },
  {
    venue: DEMO_CROWD,
    id: 'eth-5k-dec31-4pm',
    base: 'eth-5k-dec31-noon',
    question: 'Ethereum above 5,000 on Dec 31, 4PM ET?',
    rules: '',
    closeTime: '2026-12-31T21:00:00Z',
    follow: same,
    volumeShare: 0.03,
  },
  {
    venue: DEMO_EXCHANGE,
    id: 'KXNBAGAME-26DEC25BOSOKC-OKC',
    base: 'nba-xmas-bos-okc',
    question: 'Boston Celtics vs Oklahoma City Thunder',
    rules:
      'If the Oklahoma City Thunder win the Boston Celtics vs Oklahoma City Thunder professional basketball game originally scheduled for Dec 25, 2026, then the market resolves to Yes.',
    closeTime: '2026-12-26T04:00:00Z',
    yesSide: 'Oklahoma City Thunder',
    follow: otherSide,
    volumeShare: 0.5,
  },
  {
    venue: DEMO_CROWD,
    id: 'sb-lxi-chiefs',
    base: 'sb-lxi-chiefs',
    question: 'Will the Kansas City Chiefs win Super Bowl LXI?',
    rules: 'This market will resolve to "Yes" if the Kansas City Chiefs win Super Bowl LXI. Otherwise, this market will resolve to "No".',
    closeTime: '2027-02-15T00:00:00Z',
    follow: same,
    volumeShare: 0.01,
  },
  {
    venue: DEMO_CROWD,
    id: 'house-2026-gop',
    base: 'us-house-2026-dem',
    question: 'Will Republicans win control of the US House in the 2026 midterm elections?',
    rules: 'Resolves YES if the Republican Party wins a majority of seats in the US House of Representatives in the 2026 midterm elections.',
    closeTime: '2026-11-04T00:00:00Z',
    follow: (p) => 0.97 - p,
    volumeShare: 0.02,
  },
  {
    venue: DEMO_EXCHANGE,
    id: 'KXFEDDECISION-26DEC-CUT',
    base: 'fed-cut-dec-2026',
    question: 'Fed decision in Dec 2026? — Cut',
    rules: 'If the Federal Reserve cuts the upper bound of the federal funds target range at its December 2026 meeting, then the market resolves to Yes.',
    closeTime: '2026-12-16T19:00:00Z',
    follow: same,
    volumeShare: 0.25,
  },
];

const listingId = (l: Listing) => `${l.venue}:${l.id}`;

export function listingMetas(topicOf: (base: string) => string | null): PredictionMarketMeta[] {
  return DEMO_LISTINGS.map((l) => ({ id: listingId(l), source: l.venue, question: l.question, url: `${DEMO_URL}${l.venue}/${l.id}`, topic: topicOf(l.base) }));
}

export function listingTexts(): MarketText[] {
  return DEMO_LISTINGS.map((l) => ({
    venue: l.venue,
    id: l.id,
    question: l.question,
    rules: l.rules,
    closeTime: Date.parse(l.closeTime),
    yesSide: l.yesSide ?? null,
    strike: l.strike ?? null,
  }));
}

/** A `demo` market's texts: its own rules where given, else the question restated as a resolution sentence. */
export function baseText(slug: string, question: string): MarketText {
  const own = DEMO_BASE_RULES[slug];
  const proposition = question.replace(/^Will\s+/i, '').replace(/\?$/, '');
  return {
    venue: DEMO_SOURCE,
    id: slug,
    question,
    rules: own?.rules ?? `This market will resolve to "Yes" if ${proposition}. Otherwise, this market will resolve to "No".`,
    closeTime: own ? Date.parse(own.closeTime) : null,
    yesSide: own?.yesSide ?? null,
  };
}

const WOBBLE_PERIOD_MS = 9 * 3_600_000;
const PROB_MIN = 0.01;
const PROB_MAX = 0.99;

/** A small number from a string, the same on every run: each listing's own bias and phase. */
function hashUnit(text: string): number {
  let h = 2_166_136_261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16_777_619);
  return (h >>> 0) / 2 ** 32;
}

/** The listings' observations at the time of their base markets' observations. */
export function listingObservations(base: ReadonlyMap<string, ProbabilityObservation>): ProbabilityObservation[] {
  return DEMO_LISTINGS.flatMap((l) => {
    const o = base.get(demoPredictionId(l.base));
    if (!o) return [];
    const unit = hashUnit(listingId(l));
    // A bias of up to 3 points and a wobble of 1.5 points over nine hours: venues disagree, a little.
    const wobble = (unit - 0.5) * 0.06 + 0.015 * Math.sin((2 * Math.PI * o.observedAt) / WOBBLE_PERIOD_MS + unit * 2 * Math.PI);
    const prob = roundProb(Math.min(PROB_MAX, Math.max(PROB_MIN, l.follow(o.prob) + wobble)));
    return [{ marketId: listingId(l), prob, volume24h: Math.round(o.volume24h * l.volumeShare), observedAt: o.observedAt }];
  });
}
