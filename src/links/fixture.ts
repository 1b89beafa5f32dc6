/**
 * A sports or esports fixture market as a structure: both teams in the venue's order, the stage (the
 * match, map 2, set 1, the first half), the mechanism (winner, draw, total, handicap, exact score,
 * both teams to score, a completed match), the side YES stands for and the scheduled date. Kalshi's
 * ticker names the YES team; a Polymarket "A vs. B" market's YES is its first outcome, team A.
 */
import type { MarketText } from '../domain/links.js';
import { type KalshiGameTicker, parseGameTicker, teamCodes, yesTeamIndex } from './kalshi-ticker.js';
import { drawPossible, prefixLeague } from './leagues.js';
import { CLOCK_WITH_ZONE, findDate, fold, isoDate, parseClock, yearFor, zonedDate, zonedTime, zoneOf } from './normalize.js';
import { yesCondition } from './rules-text.js';
import { clean, fullName, namedTeamsIn, slugCodes, teamsAt, titleTeams, VS } from './teams.js';

export type FixtureMechanism = 'winner' | 'draw' | 'total' | 'handicap' | 'exact_score' | 'both_teams_score' | 'completed_match';

export interface Fixture {
  teams: [string, string];
  /** The teams' codes, where the venue's id carries them (Kalshi's ticker, Polymarket US's slug). */
  codes: [string, string] | null;
  league: string | null;
  /** `YYYY-MM-DD` as scheduled, where a text states it. */
  date: string | null;
  /** The scheduled start (Kalshi's ticker). */
  start: number | null;
  stage: string;
  mechanism: FixtureMechanism;
  /** The total's or the handicap's line, the exact score. */
  line: string | null;
  /** The team YES stands for (`draw`, `over`, `yes` for the other mechanisms); null when unknown. */
  yesSide: string | null;
  /** How the YES side was read, for the evidence. */
  yesSideFrom: string | null;
  /** False where the sport or stage has no draw, true where it has one, null when unknown. */
  drawPossible: boolean | null;
  /** True: the women's game, false: the men's, null: not said (team names of women's leagues such as the WNBA are their own). */
  women: boolean | null;
}

/** The fixture a market is about, or null when it is not a two-sided fixture market. */
export function parseFixture(m: MarketText): Fixture | null {
  const ticker = m.venue === 'kalshi' ? parseGameTicker(m.id) : null;
  const question = m.question.replace(/\[outcome:[^\]]*\]/i, ' ').trim();
  const condition = yesCondition(m.rules);
  const titled = titleTeams(question) ?? (condition ? namedTeamsIn(condition) : null) ?? (ticker?.type === 'BTTS' ? teamsAt(question) : null);
  if (!titled) return null;
  const teams: [string, string] = [fullName(titled[0], m.rules), fullName(titled[1], m.rules)];
  const folded = fold(`${question} ${m.rules.slice(0, 400)}`);
  const mechanism = mechanismOf(folded, ticker);
  if (mechanism === null) return null;
  if (mechanism === 'winner' && (!plainWinner(m.rules, condition) || WAY_OF_WINNING.test(`${question} ${condition ?? ''}`))) return null;
  const league = ticker?.league ?? prefixLeague(question);
  let stage = stageOf(fold(`${question} ${condition ?? ''}`), ticker);
  // "In regulation" is the match itself where a draw ends it (football), a stage of its own where
  // overtime or a shootout decides (hockey, basketball): YES on a team in regulation is NO after overtime.
  if (stage === 'regulation' && drawPossible(league, 'match', folded, ticker) === true) stage = 'match';
  const yes = yesSideOf(m, question, condition, teams, mechanism, ticker);
  const scheduled = scheduledAt(m.rules, m.closeTime) ?? scheduledAt(question, m.closeTime);
  return {
    teams,
    codes: ticker ? teamCodes(ticker) : slugCodes(m.id),
    league,
    date: ticker?.date ?? scheduled?.date ?? null,
    start: ticker?.start ?? scheduled?.start ?? null,
    stage,
    mechanism,
    line: lineOf(folded, mechanism),
    yesSide: yes.side,
    yesSideFrom: yes.from,
    drawPossible: drawPossible(league, stage, folded, ticker),
    women: womenOf(league, folded),
  };
}

/** Whether the texts say the women's or the men's game (colleges and clubs field both under one name). */
function womenOf(league: string | null, folded: string): boolean | null {
  if (league === 'NCAAWB' || /\bwomen'?s?\b|\(w\)|\bladies\b|\bfeminin/.test(folded)) return true;
  if (league === 'NCAAMB' || /\bmen'?s?\b/.test(folded)) return false;
  return null;
}

/**
 * Rules that never speak of winning are about something else in the game (a first score, a prop); a
 * winning condition with a margin, a count or a line ("by over 5.5 points", "2+ goals") is not the
 * plain winner. Tournament names and rounds ("Phan Thiet 4 Round Of 32") keep their numbers.
 */
/** A way of winning is not the winner: "by KO/TKO", "in straight sets", "in overtime", "on penalties". */
const WAY_OF_WINNING =
  /\bby (?:ko|tko|knockout|submission|decision|unanimous decision|split decision|disqualification|dq)\b|\bin straight sets\b|\bwithout (?:dropping|losing) a (?:set|map|game)\b|\bin (?:overtime|extra time|a shootout|the shootout)\b|\bon penalties\b|\bclean sheet\b|\bshutout\b|\bcome from behind\b/i;

function plainWinner(rules: string, condition: string | null): boolean {
  if (!rules.trim()) return true;
  if (!/\bwins?\b|\bwinner\b|\bwon\b|\bbeats?\b/i.test(rules)) return false;
  if (!condition) return true;
  return !/\bby (?:more than |over |at least )?\d|\d+(?:\.\d+)?\s*(?:\+|or more)|\b(?:over|under|at least|more than|fewer than)\s+\d|\bpoints?\b|\bmargin\b|\bgoals?\b|\bruns\b|\bscores?\b/i.test(
    condition,
  );
}

function mechanismOf(folded: string, ticker: KalshiGameTicker | null): FixtureMechanism | null {
  if (ticker?.type === 'BTTS' || /both teams to score/.test(folded)) return 'both_teams_score';
  if (/exact score/.test(folded)) return 'exact_score';
  if (/handicap|spread|\([+-]\d+(?:\.\d+)?\)|\bwins? by (?:more than|over|at least|\d)/.test(folded)) return 'handicap';
  if (/\bo\/u\b|over\/under|\btotal (?:goals|points|runs|maps|games|kills)|\b(?:over|under) \d+(?:\.\d+)?\b/.test(folded)) return 'total';
  if (/completed match/.test(folded)) return 'completed_match';
  if (ticker?.yesCode === 'TIE' || /\bend in a (?:draw|tie)\b|\bdraw at|\bdraw\?|\bbe a draw\b/.test(folded)) return 'draw';
  if (/\b(?:points?|yards|goals|assists|rebounds|strikeouts|hits|kills)\s*(?:\+|or more)|\d+\+\s+\w+/.test(folded)) return null;
  return 'winner';
}

const ORDINALS: Readonly<Record<string, number>> = { '1st': 1, first: 1, '2nd': 2, second: 2, '3rd': 3, third: 3, '4th': 4, fourth: 4 };

function stageOf(question: string, ticker: KalshiGameTicker | null): string {
  if (ticker?.type === 'MAP' && ticker.number) return `map ${ticker.number}`;
  if (ticker?.type === 'SETWINNER' && ticker.number) return `set ${ticker.number}`;
  const numbered = /\b(map|set|game|quarter|period|inning)\s+(\d)\b/.exec(question);
  if (numbered && !(ticker?.type === 'GAME' && numbered[1] === 'game')) return `${numbered[1]} ${numbered[2]}`;
  if (/halftime|half-time|\b1st half\b|\bfirst half\b/.test(question)) return 'first half';
  const part = /\b(1st|first|2nd|second|3rd|third|4th|fourth) (quarter|period|inning)\b/.exec(question);
  if (part) return `${part[2]} ${ORDINALS[part[1]!]}`;
  const innings = /\bfirst (\d+) innings\b|\bf(\d)\b/.exec(question);
  if (innings) return `first ${innings[1] ?? innings[2]} innings`;
  if (/\b(?:in|during) regulation\b|\bregulation time\b|\b60 minutes\b|\b3-way\b/.test(question)) return 'regulation';
  // A playoff series is not one game; an esports match is itself a series of maps.
  if (/\bseries\b/.test(question) && !/\bworld series\b/.test(question) && !(ticker && ['VALORANT', 'CS2', 'LOL', 'DOTA2'].includes(ticker.league)))
    return 'series';
  if (/\b2nd half\b|\bsecond half\b/.test(question)) return 'second half';
  return 'match';
}

function lineOf(folded: string, mechanism: FixtureMechanism): string | null {
  if (mechanism === 'total') return /(?:o\/u|over\/under|total[a-z ]*?)\s*(\d+(?:\.\d+)?)/.exec(folded)?.[1] ?? null;
  if (mechanism === 'handicap') return /\(([+-]\d+(?:\.\d+)?)\)/.exec(folded)?.[1] ?? null;
  if (mechanism === 'exact_score') return /(\d+)\s*-\s*(\d+)/.exec(folded)?.slice(1).join('-') ?? null;
  return null;
}

interface YesSide {
  side: string | null;
  from: string | null;
}

function yesSideOf(
  m: MarketText,
  question: string,
  condition: string | null,
  teams: [string, string],
  mechanism: FixtureMechanism,
  ticker: KalshiGameTicker | null,
): YesSide {
  if (mechanism === 'draw') return { side: 'draw', from: 'the proposition' };
  if (mechanism === 'total') return { side: /\bunder\b/i.test(m.yesSide ?? '') ? 'under' : 'over', from: 'the first outcome (over)' };
  if (mechanism === 'both_teams_score' || mechanism === 'completed_match') return { side: 'yes', from: 'the proposition' };
  if (mechanism === 'handicap') return { side: teams[0], from: 'the first-listed side' };
  if (mechanism === 'exact_score') return { side: 'yes', from: 'the proposition' };
  const outcome = /\[outcome:\s*([^\]]+)\]/i.exec(m.question)?.[1]?.trim();
  if (outcome) return { side: outcome, from: 'the outcome named in the question' };
  if (m.yesSide && !/^(yes|no)$/i.test(m.yesSide.trim())) return { side: m.yesSide.trim(), from: 'the venue’s YES outcome' };
  const dash = /\s[\u2014]\s+([^\u2014]+)$/.exec(question)?.[1];
  if (dash && m.venue === 'kalshi') return { side: clean(dash), from: 'the title’s YES name' };
  const wins = condition ? /^(.+?)\s+wins?\b/i.exec(condition)?.[1] : /^will\s+(.+?)\s+win\b/i.exec(question)?.[1];
  if (wins && !VS.test(wins)) return { side: clean(wins.replace(/^the\s+/i, '')), from: 'the rules’ YES condition' };
  if (ticker) {
    const index = yesTeamIndex(ticker);
    return index === null ? { side: null, from: null } : { side: teams[index], from: `the ticker’s YES code ${ticker.yesCode}` };
  }
  if (m.venue.startsWith('polymarket')) return { side: teams[0], from: 'the first-listed team (Polymarket’s first outcome)' };
  return { side: null, from: null };
}

/**
 * "scheduled for Sep 12, 2026", "scheduled for 2026-09-14 at 9:40PM ET", "on 2026-05-09": the New York
 * day a text schedules the fixture on, and its start where a time is stated. A time stated in UTC
 * moves the day ("September 15, 2026 at 1:40 AM UTC" is the 14th in New York).
 */
function scheduledAt(text: string, closeTime: number | null): { date: string; start: number | null } | null {
  const at = /\b(?:scheduled for|scheduled on|on)\s+(.{0,60})/i.exec(text);
  const date = at ? findDate(at[1]!) : null;
  if (!date || !at || date.index !== 0) return null;
  const year = yearFor(date, closeTime);
  if (year === null) return null;
  const clock = /^[,\s]*(?:at\s+)?/.exec(at[1]!.slice(date.length));
  const rest = at[1]!.slice(date.length + (clock?.[0].length ?? 0));
  const timed = CLOCK_WITH_ZONE.exec(rest);
  const hm = timed && timed.index === 0 ? parseClock(timed[1]!) : null;
  if (!timed || !hm) return { date: isoDate(year, date.month, date.day), start: null };
  const start = zonedTime(year, date.month, date.day, hm[0], hm[1], zoneOf(timed[2]));
  return { date: zonedDate(start), start };
}
