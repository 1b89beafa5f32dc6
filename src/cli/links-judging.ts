/** `links judge` and `links claims`: JSON Lines in, one JSON line out per line in. */
import type { Command } from 'commander';

export function registerLinkJudging(_links: Command): void {}
