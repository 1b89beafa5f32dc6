/**
 * Two fixture markets: the same teams on the same day, then the stage, the mechanism, the line and
 * the YES side. Opposite YES teams are `inverse` only where the fixture cannot end level.
 */
import type { LinkImplication, LinkVerdict, MarketText } from '../domain/links.js';
import { VerdictBuilder } from './evidence.js';
import type { Fixture } from './fixture.js';
import { sameTeam, sharedWords } from './teams.js';
import { isoInstant } from './normalize.js';
import { exceptionalBranches, settlementSource } from './rules-text.js';

const HOUR = 3_600_000;

type Alignment = 'straight' | 'crossed';

/** How b's teams line up with a's: in the same order, crossed, or not the same two teams (null). */
export function alignTeams(a: Fixture, b: Fixture): Alignment | 'ambiguous' | null {
  const [xa, xb] = [sharedWords(a.teams), sharedWords(b.teams)];
  const same = (i: number, j: number) => sameTeam(a.teams[i]!, b.teams[j]!, xa, xb);
  const straight = same(0, 0) && same(1, 1);
  const crossed = same(0, 1) && same(1, 0);
  if (straight && crossed) return 'ambiguous';
  if (straight) return 'straight';
  if (crossed) return 'crossed';
  if (a.codes && b.codes) {
    if (a.codes[0] === b.codes[0] && a.codes[1] === b.codes[1]) return 'straight';
    if (a.codes[0] === b.codes[1] && a.codes[1] === b.codes[0]) return 'crossed';
  }
  return null;
}

/** Whether both markets are about the fixture on one day: stated dates first, then the start against the other's close. */
export function sameDay(ma: MarketText, a: Fixture, mb: MarketText, b: Fixture): boolean | null {
  // Two starts stated hours apart on one day are the two games of a doubleheader.
  if (a.date && b.date && a.start !== null && b.start !== null && a.date === b.date) return Math.abs(a.start - b.start) <= 2 * HOUR;
  if (a.date && b.date) return a.date === b.date;
  const fromStart = (start: number | null, close: number | null) => {
    if (start === null || close === null) return undefined;
    const delta = close - start;
    if (delta >= -HOUR && delta <= 14 * HOUR) return true;
    return delta < -HOUR || delta > 20 * HOUR ? false : null;
  };
  const started = fromStart(a.start, mb.closeTime) ?? fromStart(b.start, ma.closeTime);
  if (started !== undefined) return started;
  if (ma.closeTime === null || mb.closeTime === null) return null;
  const gap = Math.abs(ma.closeTime - mb.closeTime);
  return gap <= 10 * HOUR ? true : gap > 20 * HOUR ? false : null;
}

const describe = (f: Fixture, m: MarketText) =>
  `${f.teams[0]} vs ${f.teams[1]} (${f.date ?? (m.closeTime === null ? 'date unknown' : `closes ${isoInstant(m.closeTime)}`)})`;
const mechanismText = (f: Fixture) => (f.line ? `${f.mechanism.replace(/_/g, ' ')} ${f.line}` : f.mechanism.replace(/_/g, ' '));

/** The index (0, 1) of the team a fixture's YES side names, in its own order. */
function yesIndex(f: Fixture): 0 | 1 | null {
  if (!f.yesSide) return null;
  const [x] = [sharedWords(f.teams)];
  const first = sameTeam(f.yesSide, f.teams[0], new Set(), x);
  const second = sameTeam(f.yesSide, f.teams[1], new Set(), x);
  if (first === second) return null;
  return first ? 0 : 1;
}

export function judgeFixtures(ma: MarketText, a: Fixture, mb: MarketText, b: Fixture): LinkVerdict {
  const v = new VerdictBuilder();
  const alignment = alignTeams(a, b);
  const day = alignment === null || alignment === 'ambiguous' ? null : sameDay(ma, a, mb, b);
  const subjectAgrees = alignment === null ? false : alignment === 'ambiguous' ? null : day;
  v.compare('subject', describe(a, ma), describe(b, mb), subjectAgrees);
  const stageAgrees = v.compare('stage', a.stage, b.stage);
  const mechanismAgrees = v.compare('mechanism', mechanismText(a), mechanismText(b), a.mechanism === b.mechanism && a.line === b.line);
  v.compare('proposition', a.mechanism, b.mechanism);
  v.compare('threshold', a.line, b.line, a.line === null && b.line === null ? null : a.line === b.line);
  const [sa, sb] = [settlementSource(ma.rules, ma.resolutionSource), settlementSource(mb.rules, mb.resolutionSource)];
  v.compare('settlement_source', sa, sb);
  v.compare('window', a.date ?? null, b.date ?? null, day);
  const sides = compareSides(a, b, alignment);
  v.compare('yes_side', sideText(a), sideText(b), sides);

  if (alignment === null) return v.verdict('different');
  if (a.league && b.league && a.league !== b.league) return v.verdict('different');
  // One name, two teams: a college's or a club's women's game is not its men's game.
  if (a.women !== b.women && (a.women === true || b.women === true)) {
    if (a.women === false || b.women === false) return v.verdict('different');
    return v.lack("whether both are the women's game: one venue says so, the other does not").verdict('unresolved');
  }
  if (alignment === 'ambiguous') return v.lack('which team is which: the names match both ways').verdict('unresolved');
  if (day === false) return v.verdict('different');
  if (day === null) return v.lack('the fixture’s date: the texts state none and the close times are too far apart to tell').verdict('unresolved');
  if (!stageAgrees) return v.verdict('related');
  if (a.mechanism !== b.mechanism) return v.verdict('related');
  if (!mechanismAgrees) return v.verdict('related', totalImplication(a, b));
  addFixtureRisks(v, ma, mb, a, b);
  if (sides === null) return v.lack('the side YES stands for on one venue').verdict('unresolved');
  if (sides) return v.verdict('same');
  if (a.drawPossible === false && b.drawPossible !== true) return v.verdict('inverse');
  if (b.drawPossible === false && a.drawPossible !== true) return v.verdict('inverse');
  // A draw settled 50/50 on both venues keeps opposite sides complementary: YES at 0.50 is NO at 0.50.
  if (splitsDraws(ma.rules) && splitsDraws(mb.rules)) return v.verdict('inverse');
  if (a.drawPossible === true || b.drawPossible === true) return v.verdict('related');
  return v.lack('whether the fixture can end in a draw (a third outcome rules out inverse)').verdict('unresolved');
}

const splitsDraws = (rules: string) => /\b(?:tie|tied|draw|no contest)\b[^.]*(?:50\/50|50-50|\$0?\.50\b|fifty)/i.test(rules);

const sideText = (f: Fixture) => (f.yesSide ? `${f.yesSide}${f.yesSideFrom ? ` (${f.yesSideFrom})` : ''}` : null);

/** True: YES stands for the same side; false: the opposite; null: unknown. */
function compareSides(a: Fixture, b: Fixture, alignment: Alignment | 'ambiguous' | null): boolean | null {
  if (alignment === null || alignment === 'ambiguous') return null;
  if (a.mechanism !== 'winner' && a.mechanism !== 'handicap') return a.yesSide !== null && a.yesSide === b.yesSide ? true : null;
  const [ia, ib] = [yesIndex(a), yesIndex(b)];
  if (ia === null || ib === null) return null;
  const mapped = alignment === 'straight' ? ib : ((1 - ib) as 0 | 1);
  return ia === mapped;
}

/** Over a higher total implies over a lower one. */
function totalImplication(a: Fixture, b: Fixture): LinkImplication | undefined {
  if (a.mechanism !== 'total' || b.mechanism !== 'total' || a.yesSide !== 'over' || b.yesSide !== 'over' || !a.line || !b.line) return undefined;
  return Number(a.line) > Number(b.line) ? 'a_implies_b' : 'b_implies_a';
}

function addFixtureRisks(v: VerdictBuilder, ma: MarketText, mb: MarketText, a: Fixture, b: Fixture): void {
  if (!ma.rules.trim() || !mb.rules.trim()) v.risk('rules not given on one venue: its postponement, void and tie handling are unread');
  const [ra, rb] = [exceptionalBranches(ma.rules), exceptionalBranches(mb.rules)];
  for (const branch of ra) if (!rb.includes(branch)) v.risk(`${ma.venue} only: ${branch}`);
  for (const branch of rb) if (!ra.includes(branch)) v.risk(`${mb.venue} only: ${branch}`);
  if (a.drawPossible === true || b.drawPossible === true) {
    v.risk(
      splitsDraws(ma.rules) && splitsDraws(mb.rules)
        ? 'a draw or no contest settles 50/50 on both venues'
        : 'a draw is possible: each venue settles it by its own rule',
    );
  }
}
