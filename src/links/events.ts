/**
 * Prediction events: markets that are one question on several venues. A group is a clique of
 * SAME/INVERSE links (every member linked directly to every other, never through a third, since
 * "same as" read off texts is not reliably transitive), its YES sides consistent, built greedily
 * from the busiest market down; each market is in one group at most. The consensus and spread
 * read every member's probability with INVERSE members flipped to the first member's YES.
 */
import { createHash } from 'node:crypto';

export interface EventLink {
  a: string;
  b: string;
  relation: 'same' | 'inverse';
}

export interface EventMarket {
  id: string;
  source: string;
  question: string;
  /** Fraction 0..1. */
  prob: number;
  volume24h: number;
}

export interface PredictionEventModel {
  id: string;
  question: string;
  /** Busiest first; `flipped` when the member's YES is the first member's NO. */
  members: { market: EventMarket; flipped: boolean }[];
  /** Fraction 0..1, 4 decimals. */
  consensus: number;
  /** Points, 2 decimals. */
  spreadPts: number;
  volume24h: number;
  venues: number;
}

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;
const busiestFirst = (x: EventMarket, y: EventMarket) => y.volume24h - x.volume24h || x.id.localeCompare(y.id);

/** Each market's links: the other market and whether YES flips between them. */
function adjacency(links: readonly EventLink[]): Map<string, Map<string, boolean>> {
  const out = new Map<string, Map<string, boolean>>();
  const add = (x: string, y: string, flips: boolean) => {
    const own = out.get(x) ?? new Map<string, boolean>();
    out.set(x, own);
    own.set(y, flips);
  };
  for (const { a, b, relation } of links) {
    if (a === b) continue;
    add(a, b, relation === 'inverse');
    add(b, a, relation === 'inverse');
  }
  return out;
}

/** The event's figures from its members, the first member's YES as the reference. */
export function eventOf(members: { market: EventMarket; flipped: boolean }[]): PredictionEventModel {
  const yes = members.map(({ market, flipped }) => (flipped ? 1 - market.prob : market.prob));
  const volume = members.reduce((sum, { market }) => sum + Math.max(0, market.volume24h), 0);
  const weighted =
    volume > 0
      ? members.reduce((sum, { market }, i) => sum + yes[i]! * Math.max(0, market.volume24h), 0) / volume
      : yes.reduce((s, p) => s + p, 0) / yes.length;
  const ids = members.map((m) => m.market.id).sort();
  return {
    id: `evt_${createHash('sha256').update(ids.join('\n')).digest('base64url').slice(0, 16)}`,
    question: members[0]!.market.question,
    members,
    consensus: round(weighted, 4),
    spreadPts: round((Math.max(...yes) - Math.min(...yes)) * 100, 2),
    volume24h: volume,
    venues: new Set(members.map((m) => m.market.source)).size,
  };
}

/** Groups of linked markets known to `marketOf` (the active ones), busiest first. */
export function groupEvents(links: readonly EventLink[], marketOf: (id: string) => EventMarket | undefined): PredictionEventModel[] {
  const linked = adjacency(links);
  const markets = [...linked.keys()].flatMap((id) => marketOf(id) ?? []).sort(busiestFirst);
  const grouped = new Set<string>();
  const events: PredictionEventModel[] = [];
  for (const first of markets) {
    if (grouped.has(first.id)) continue;
    const members = [{ market: first, flipped: false }];
    const firstLinks = linked.get(first.id)!;
    const candidates = [...firstLinks.keys()].flatMap((id) => (grouped.has(id) ? [] : (marketOf(id) ?? []))).sort(busiestFirst);
    for (const candidate of candidates) {
      const flipped = firstLinks.get(candidate.id)!;
      const own = linked.get(candidate.id)!;
      // Linked to every member already in, with YES sides that agree with theirs.
      const fits = members.every((m) => own.has(m.market.id) && own.get(m.market.id) === (flipped !== m.flipped));
      if (fits) members.push({ market: candidate, flipped });
    }
    if (members.length < 2) continue;
    for (const m of members) grouped.add(m.market.id);
    events.push(eventOf(members));
  }
  return events.sort((x, y) => y.volume24h - x.volume24h || x.id.localeCompare(y.id));
}
