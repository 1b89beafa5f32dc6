/**
 * `links list|confirm|reject`: the operator's review of the stored links. A decision is stored,
 * wins over the judge from then on (the judge never overwrites it), and every instance reads it
 * from the store at once.
 */
import { type Command, Option } from 'commander';
import { LINK_RELATIONS, type LinkRelation } from '../domain/links.js';
import type { MarketLinkView } from '../store/market-links.js';
import type { Store } from '../store/index.js';
import { withStore } from './context.js';
import { CliError } from './errors.js';
import { isoOrNull, printJson, printLines, printTable } from './output.js';

const DECISIONS = ['same', 'inverse', 'related'] as const;
type Decision = (typeof DECISIONS)[number];

export function registerLinkReview(links: Command): void {
  links
    .command('list')
    .description('list the stored links (the judge\'s verdicts, with decisions over them); "different": the pairs an operator rejected')
    .addOption(new Option('--relation <relation>', 'only links of this relation').choices(LINK_RELATIONS))
    .option('--json', 'print a JSON array')
    .action(async (options: { relation?: LinkRelation; json?: boolean }) => listLinks(options));

  links
    .command('confirm')
    .description('decide what two markets are to each other; wins over the judge')
    .argument('<a>', 'a market id, <source>:<id> (polymarket:1234, kalshi:KXBTCD-...)')
    .argument('<b>', 'the other market id')
    .addOption(new Option('--as <relation>', 'the relation').choices(DECISIONS).makeOptionMandatory())
    .option('--json', 'print the decision as one JSON object')
    .action(async (a: string, b: string, options: { as: Decision; json?: boolean }) => decide(a, b, options.as, options));

  links
    .command('reject')
    .description('decide that two markets are not linked (different); wins over the judge')
    .argument('<a>', 'a market id, <source>:<id>')
    .argument('<b>', 'the other market id')
    .option('--json', 'print the decision as one JSON object')
    .action(async (a: string, b: string, options: { json?: boolean }) => decide(a, b, 'different', options));
}

const linkJson = (l: MarketLinkView) => ({
  a: l.marketId,
  b: l.otherId,
  relation: l.relation,
  implies: l.implies,
  decided_by: l.decidedBy,
  decided_at: isoOrNull(l.decidedAt),
  evidence: l.evidence,
  basis_risk: l.basisRisk,
  missing: l.missing,
});

/** What the operator reads first: the evidence that disagreed, or what is missing. */
function why(l: MarketLinkView): string {
  if (l.missing.length > 0) return `missing: ${l.missing.join('; ')}`;
  const disagreeing = l.evidence.filter((e) => e.agrees === false).map((e) => `${e.aspect}: ${e.a ?? '?'} / ${e.b ?? '?'}`);
  if (disagreeing.length > 0) return disagreeing.join('; ');
  return l.basisRisk.length > 0 ? `basis risk: ${l.basisRisk.join('; ')}` : '';
}

async function listLinks(options: { relation?: LinkRelation; json?: boolean }): Promise<void> {
  const links = await withStore((store) => store.marketLinks.listLinks(options.relation ? [options.relation] : undefined));
  if (options.json) return printJson(links.map(linkJson));
  if (links.length === 0)
    return printLines(options.relation ? `no ${options.relation} links` : 'no links yet: they appear as the feeds bring markets that several venues list');
  printTable(
    ['a', 'b', 'relation', 'decided by', 'why'],
    links.map((l) => [l.marketId, l.otherId, l.relation, l.decidedBy, why(l)]),
  );
}

/** Both ids must name markets the gateway knows; a market is not linked to itself. */
async function checkMarkets(store: Store, a: string, b: string): Promise<void> {
  if (a === b) throw new CliError('a market is not linked to itself: give two different market ids');
  const [priced, texts] = await Promise.all([store.prediction.marketsByIds([a, b]), store.marketLinks.textsByIds([a, b])]);
  const found = new Set([...priced.map((m) => m.id), ...texts.map((t) => t.marketId)]);
  const unknown = [a, b].filter((id) => !found.has(id));
  if (unknown.length > 0) {
    throw new CliError(`no prediction market with id ${unknown.join(' or ')}: ids are <source>:<id>, as links list and the GraphQL API show them`);
  }
}

async function decide(a: string, b: string, relation: Decision | 'different', options: { json?: boolean }): Promise<void> {
  const at = Date.now();
  await withStore(async (store) => {
    await checkMarkets(store, a, b);
    await store.marketLinks.decide(a, b, relation, at);
  });
  if (options.json) return printJson({ a, b, relation, decided_by: 'operator', decided_at: isoOrNull(at) });
  printLines(relation === 'different' ? `rejected: ${a} and ${b} are not linked` : `confirmed: ${a} and ${b} are ${relation}`);
}
