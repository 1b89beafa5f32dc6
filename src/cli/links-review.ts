/** `links list|confirm|reject`: the operator's review of stored links. */
import type { Command } from 'commander';

export function registerLinkReview(_links: Command): void {}
