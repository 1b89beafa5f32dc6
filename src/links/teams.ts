/**
 * Team names as venues spell them: read out of titles ("KBO: A vs. B", "Set 1 Winner: A vs B", "A vs B
 * · Who will win ... A vs B scheduled for ...") and rules sentences, and matched across venues by a
 * distinctive word ("Atlanta" is "Atlanta Dream") or by the codes in Kalshi's ticker and Polymarket
 * US's slug ("RICEND" and "aec-cfb-rice-nd-2026-09-12").
 */
import { words } from './normalize.js';

export const VS = /\s+(?:vs\.?|v\.?)\s+/i;

/** A title's teams; Polymarket US titles repeat them around a "·" ("A vs B · Who will win ... A vs B scheduled for ..."). */
export function titleTeams(question: string): [string, string] | null {
  for (const part of [question, ...question.split('\u00b7')]) {
    const teams = teamsIn(part.trim());
    if (teams) return teams;
  }
  return null;
}

/** "A vs. B" with the venue's prefixes ("KBO:", "Set 1 Winner:") and suffixes (": O/U 2.5", "- Map 2 Winner") cut off. */
export function teamsIn(text: string): [string, string] | null {
  const exact = /exact score:\s*(.+?)\s+\d+\s*[-\u2013]\s*\d+\s+(.+?)\??$/i.exec(text);
  if (exact) return [clean(exact[1]!), clean(exact[2]!)];
  const handicap = /handicap:\s*(.+?)\s*\([+-][\d.]+\)\s+vs\.?\s+(.+?)\s*\([+-][\d.]+\)/i.exec(text);
  if (handicap) return [clean(handicap[1]!), clean(handicap[2]!)];
  const parts = text.split(VS);
  if (parts.length !== 2) return null;
  const left = parts[0]!.split(/:\s+|\u00b7|\bthe\s+(?=[A-Z])|\bevent\s+/).pop()!;
  const right = parts[1]!.split(
    /\s*(?::\s|\s-\s|\u2014|\?|\(|\bcollege\b|\bprofessional\b|\bpro\b|\bgame\b|\bmatch\b|\bscheduled\b|\boriginally\b|\bend in\b|\bon\s+\d)/i,
  )[0]!;
  const a = clean(left.replace(/^will\s+/i, ''));
  const b = clean(right);
  return a && b ? [a, b] : null;
}

const TEAM_NAME = String.raw`[A-Z0-9][\p{L}0-9.'&-]*(?:\s+(?:[A-Z0-9][\p{L}0-9.'&-]*|de|of|la|del))*`;
const NAMED_TEAMS = new RegExp(String.raw`(${TEAM_NAME})\s+vs\.?\s+(${TEAM_NAME})`, 'u');

/** In a rules sentence, the capitalised names either side of "vs": "... in the Buffalo Bills vs Houston Texans professional football game". */
export function namedTeamsIn(condition: string): [string, string] | null {
  const match = NAMED_TEAMS.exec(condition);
  if (!match) return null;
  const strip = (team: string) => team.replace(/\s+(?:Pro|College|Professional)$/, '').replace(/^(?:If|The)\s+/, '');
  return [clean(strip(match[1]!)), clean(strip(match[2]!))];
}

/** A title's short name ("Thunder") as the rules spell it in full ("the Oklahoma City Thunder"), else as it is. */
export function fullName(name: string, rules: string): string {
  if (!rules || name.includes(' ')) return name;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const longer = new RegExp(String.raw`((?:[A-Z][\p{L}.'&-]*\s+){1,3})${escaped}\b`, 'u').exec(rules);
  const prefix = longer?.[1]?.replace(/^(?:If|The|In|When)\s+/, '');
  return prefix ? `${prefix}${name}` : name;
}

/** Kalshi's "Real Betis at Real Sociedad": away at home. */
export function teamsAt(text: string): [string, string] | null {
  const match = /^(.+?)\s+at\s+(.+?)(?::|$)/.exec(text);
  return match ? [clean(match[1]!), clean(match[2]!)] : null;
}

export const clean = (name: string) =>
  name
    .replace(/\s+/g, ' ')
    .replace(/^[\s:,-]+|[\s:,?.-]+$/g, '')
    .trim();

/** Polymarket US slugs name both teams before the date (`aec-cfb-rice-nd-2026-09-12`). */
export function slugCodes(id: string): [string, string] | null {
  const match = /-([a-z]{2,5})-([a-z]{2,5})-\d{4}-\d{2}-\d{2}$/.exec(id.toLowerCase());
  return match ? [match[1]!.toUpperCase(), match[2]!.toUpperCase()] : null;
}

const GENERIC = new Set([
  'fc',
  'cf',
  'cd',
  'sc',
  'ac',
  'as',
  'afc',
  'bc',
  'bk',
  'club',
  'basket',
  'basketball',
  'baskets',
  'esports',
  'gaming',
  'team',
  'the',
  'de',
  'del',
  'la',
  'of',
  'and',
  'city',
  'united',
  'sk',
  'jk',
  'ud',
  'rc',
]);

/** A team name's distinctive words (generic ones such as FC, Basket, Esports dropped). */
export function teamWords(name: string, exclude: ReadonlySet<string> = new Set()): Set<string> {
  return new Set(words(name).filter((w) => w.length >= 2 && !GENERIC.has(w) && !exclude.has(w)));
}

/** Words both teams of one fixture share ("Real" in Real Betis at Real Sociedad) tell nothing apart. */
export function sharedWords(teams: [string, string]): Set<string> {
  const first = teamWords(teams[0]);
  return new Set([...teamWords(teams[1])].filter((w) => first.has(w)));
}

/** Two spellings of one team: a distinctive word in common, or one name's word the start of the other's. */
export function sameTeam(x: string, y: string, excludeX: ReadonlySet<string> = new Set(), excludeY: ReadonlySet<string> = new Set()): boolean {
  const a = teamWords(x, excludeX);
  const b = teamWords(y, excludeY);
  for (const w of a) {
    if (b.has(w)) return true;
    for (const v of b) if (Math.min(w.length, v.length) >= 4 && (w.startsWith(v) || v.startsWith(w))) return true;
  }
  return false;
}
