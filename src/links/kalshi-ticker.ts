/**
 * Kalshi's tickers carry what its titles leave out: the league and market type in the series
 * (`KXMLBGAME`, `KXVALORANTMAP`), the scheduled date and start time in New York time, both teams'
 * codes, the map or set number, and the code of the side YES stands for (`...-26MAY091915STLSD-SD`).
 */
import { monthNumber, NEW_YORK, zonedTime } from './normalize.js';

export interface KalshiGameTicker {
  league: string;
  type: 'GAME' | 'MAP' | 'SETWINNER' | 'MATCH' | 'FIGHT' | 'BTTS';
  /** `YYYY-MM-DD`, the New York date in the ticker. */
  date: string;
  /** The scheduled start, where the ticker has a time. */
  start: number | null;
  codes: string;
  /** The map or set number. */
  number: number | null;
  /** The code of the side YES stands for (`TIE` for a draw), where the ticker ends with one. */
  yesCode: string | null;
}

const GAME_TICKER = /^KX([A-Z0-9]+?)(GAME|MAP|SETWINNER|MATCH|FIGHT|BTTS)-(\d{2})([A-Z]{3})(\d{2})(\d{4})?([A-Z0-9]+?)(?:-(\d{1,2}))?(?:-([A-Z0-9]+))?$/;

export function parseGameTicker(ticker: string): KalshiGameTicker | null {
  const match = GAME_TICKER.exec(ticker.toUpperCase());
  if (!match) return null;
  const [, league, type, yy, mon, dd, hhmm, codes, number, yesCode] = match;
  const month = monthNumber(mon!);
  if (!month) return null;
  const year = 2000 + Number(yy);
  const date = `${year}-${String(month).padStart(2, '0')}-${dd}`;
  const start = hhmm ? zonedTime(year, month, Number(dd), Number(hhmm.slice(0, 2)), Number(hhmm.slice(2)), NEW_YORK) : null;
  return {
    league: league!,
    type: type as KalshiGameTicker['type'],
    date,
    start,
    codes: codes!,
    number: number ? Number(number) : null,
    yesCode: yesCode ?? null,
  };
}

/** Which listed team (0 or 1) a YES code names: the codes are the two teams' codes in title order. */
export function yesTeamIndex(ticker: KalshiGameTicker): 0 | 1 | null {
  const { codes, yesCode } = ticker;
  if (!yesCode || yesCode === 'TIE' || yesCode.length >= codes.length) return null;
  const first = codes.startsWith(yesCode);
  const last = codes.endsWith(yesCode);
  if (first === last) return null;
  return first ? 0 : 1;
}

/** The two teams' codes, where the YES code splits them (`RICEND` with `ND` -> [`RICE`, `ND`]). */
export function teamCodes(ticker: KalshiGameTicker): [string, string] | null {
  const index = yesTeamIndex(ticker);
  if (index === null || !ticker.yesCode) return null;
  const rest = index === 0 ? ticker.codes.slice(ticker.yesCode.length) : ticker.codes.slice(0, -ticker.yesCode.length);
  return index === 0 ? [ticker.yesCode, rest] : [rest, ticker.yesCode];
}
