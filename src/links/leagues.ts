/**
 * Whether a fixture can end level: a draw rules out `inverse` for opposite sides. Leagues are read
 * from Kalshi's series or a title's prefix ("KBO:", "AHL:"); an unknown league with no telling word
 * leaves the question open.
 */
import type { KalshiGameTicker } from './kalshi-ticker.js';

/** Leagues and stages without a draw: basketball, baseball outside Korea and Japan, hockey with shootouts, lacrosse, tennis, esports maps. */
const DRAWLESS_LEAGUES = new Set([
  'MLB',
  'NBA',
  'WNBA',
  'NHL',
  'NCAAF',
  'NCAAMB',
  'NCAAWB',
  'NCAAB',
  'AHL',
  'KHL',
  'BBL',
  'BBSERIEA',
  'LNBELITE',
  'CBA',
  'JBLEAGUE',
  'KBL',
  'ACB',
  'ARGLNB',
  'BSL',
  'PLL',
  'EUROLEAGUE',
  'NBL',
  'ATP',
  'WTA',
  'ATPCHALLENGER',
  'WTACHALLENGER',
  'VALORANT',
  'CS2',
  'LOL',
  'DOTA2',
]);
/** Leagues whose games can end level: football (soccer) and the baseball leagues that allow ties, the NFL, combat sports. */
const DRAW_LEAGUES = /^(KBO|NPB|NFL|UFC|BOXING|EPL|LALIGA|SERIEA|BUNDESLIGA|LIGUE1|MLS|NWSL|UCL|UEL|.*(?:SL|PDIV|LIGA|LEAGUE1|CUP))$/;

const PREFIX_LEAGUES: Record<string, string> = {
  kbo: 'KBO',
  npb: 'NPB',
  ahl: 'AHL',
  khl: 'KHL',
  valorant: 'VALORANT',
  lol: 'LOL',
  cs2: 'CS2',
  'counter-strike': 'CS2',
  nba: 'NBA',
  wnba: 'WNBA',
  mlb: 'MLB',
  nhl: 'NHL',
};

/** The league a title's prefix names ("KBO: Kia Tigers vs. Lotte Giants"). */
export function prefixLeague(question: string): string | null {
  const prefix = /^([A-Za-z0-9-]+):/.exec(question.trim());
  return prefix ? (PREFIX_LEAGUES[prefix[1]!.toLowerCase()] ?? null) : null;
}

/** False where the sport or stage has no draw, true where it has one, null when unknown. */
export function drawPossible(league: string | null, stage: string, folded: string, ticker: KalshiGameTicker | null): boolean | null {
  // Regulation time can end level even where overtime then decides the game.
  if (stage === 'regulation') return true;
  // A part of a game (a half, a quarter, a period, the first innings) can end level in any sport.
  if (/^(?:quarter|period|inning) \d$|\bhalf$|^first \d+ innings$/.test(stage)) return true;
  if (/^(map|set|game) \d$/.test(stage)) return false;
  if (ticker?.type === 'SETWINNER' || ticker?.type === 'MATCH' || ticker?.type === 'MAP') return false;
  if (league && DRAWLESS_LEAGUES.has(league)) return false;
  if (league && DRAW_LEAGUES.test(league)) return true;
  if (/\bcollege football\b|\bbasketball\b|\bbaseball\b|\btennis\b/.test(folded)) return false;
  if (/\bdraw\b|\bsoccer\b|\bfutbol\b|\bfc\b/.test(folded)) return true;
  return null;
}
