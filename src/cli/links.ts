/**
 * `links`: market links. `judge` and `claims` read JSON Lines and judge texts offline (the contract
 * other tools use); `list`, `confirm` and `reject` are the operator's review of the stored links.
 */
import type { Command } from 'commander';
import { registerLinkJudging } from './links-judging.js';
import { registerLinkReview } from './links-review.js';

export function registerLinks(program: Command): void {
  const links = program.command('links').description('market links: the same question on several venues, and the asset a question is about');
  registerLinkJudging(links);
  registerLinkReview(links);
}
