/**
 * `usage report|legacy`: the usage records. `report` sums requests by day, route or key
 * for an account or a key; `legacy` lists who still calls each REST route, so an operator knows
 * whom to tell before retiring one (docs/migration.md).
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { stringify } from 'csv-stringify/sync';
import { DAY_MS, utcDate } from '../domain/time.js';
import type { UsageGroup, UsageGrouping } from '../store/usage.js';
import { withStore } from './context.js';
import { CliError } from './errors.js';
import { isoOrNull, printJson, printLines, printTable } from './output.js';
import { parseIsoTimestamp } from './parse.js';

interface ReportOptions {
  account?: string;
  key?: string;
  since?: string;
  by: UsageGrouping;
  json?: boolean;
  csv?: boolean;
}

const GROUPINGS: readonly UsageGrouping[] = ['day', 'route', 'key'];
const DEFAULT_DAYS = 30;

/** A UTC day, `YYYY-MM-DD`; a date-time with a zone is taken as its UTC day. */
function parseDay(value: string): string {
  try {
    return utcDate(parseIsoTimestamp(value));
  } catch {
    throw new InvalidArgumentError('Expected a date, YYYY-MM-DD (a UTC day), e.g. 2026-11-01.');
  }
}

function parseDays(value: string): number {
  const days = Number(value);
  if (!/^\d+$/.test(value) || days < 1 || days > 3_650) throw new InvalidArgumentError('Expected a whole number of days from 1 to 3650.');
  return days;
}

/** The first day of the last `days` days, today (UTC) included. */
const firstDayOf = (days: number) => utcDate(Date.now() - (days - 1) * DAY_MS);

export function registerUsage(program: Command): void {
  const usage = program
    .command('usage')
    .description('requests per day, account, key and route, as counted by running servers (written every USAGE_FLUSH_MS, kept USAGE_RETENTION_DAYS)');

  usage
    .command('report')
    .description(`requests by day, route or key, for every account or one account or key (default: the last ${DEFAULT_DAYS} days)`)
    .addOption(new Option('--account <id>', 'only this account (acct_...)').conflicts('key'))
    .option('--key <id>', 'only this key (key_...)')
    .option('--since <date>', 'first UTC day included, YYYY-MM-DD', parseDay)
    .addOption(new Option('--by <grouping>', 'one row per').choices(GROUPINGS).default('day'))
    .addOption(new Option('--json', 'print one JSON object').conflicts('csv'))
    .option('--csv', 'print CSV with a header line (for a spreadsheet)')
    .action(async (options: ReportOptions) => report(options));

  usage
    .command('legacy')
    .description('per REST route, the accounts and keys that called it, how often and when last: whom to tell before a sunset')
    .option('--days <n>', 'how many days back, today included', parseDays, DEFAULT_DAYS)
    .option('--json', 'print one JSON object')
    .action(async (options: { days: number; json?: boolean }) => legacy(options));
}

/** A group's label columns: its day, route, or key with its account. */
const LABELS: Record<UsageGrouping, { headers: string[]; cells(group: UsageGroup): string[] }> = {
  day: { headers: ['date'], cells: (g) => [g.day!] },
  route: { headers: ['route'], cells: (g) => [g.route!] },
  key: { headers: ['key_id', 'account_id'], cells: (g) => [g.keyId!, g.accountId!] },
};

async function report(options: ReportOptions): Promise<void> {
  const since = options.since ?? firstDayOf(DEFAULT_DAYS);
  const groups = await withStore(async (store) => {
    if (options.account && !(await store.accounts.findAccount(options.account))) throw new CliError(`no account with id ${options.account}`);
    if (options.key && !(await store.accounts.findKeyById(options.key))) throw new CliError(`no key with id ${options.key} (see: keys list)`);
    return store.usage.report(
      { sinceDay: since, ...(options.account ? { accountId: options.account } : {}), ...(options.key ? { keyId: options.key } : {}) },
      options.by,
    );
  });
  const label = LABELS[options.by];
  const total = groups.reduce((sum, g) => sum + g.requests, 0);
  if (options.json) {
    printJson({
      since,
      by: options.by,
      ...(options.account ? { account_id: options.account } : {}),
      ...(options.key ? { key_id: options.key } : {}),
      total,
      rows: groups.map((g) => ({
        ...Object.fromEntries(label.headers.map((h, i) => [h, label.cells(g)[i]])),
        requests: g.requests,
        last_at: isoOrNull(g.lastAt),
      })),
    });
    return;
  }
  const rows = groups.map((g) => [...label.cells(g), String(g.requests), isoOrNull(g.lastAt)!]);
  if (options.csv) {
    process.stdout.write(stringify([[...label.headers, 'requests', 'last_at'], ...rows], { record_delimiter: 'unix', eof: true }));
    return;
  }
  const scope = options.account ? `account ${options.account}` : options.key ? `key ${options.key}` : 'all accounts';
  if (groups.length === 0) return printLines(`No requests recorded since ${since} (${scope}).`);
  printTable([...label.headers.map((h) => h.toUpperCase()), 'REQUESTS', 'LAST'], rows);
  printLines('', `${total} requests since ${since} (${scope}).`);
}

async function legacy(options: { days: number; json?: boolean }): Promise<void> {
  const { ROUTE_IDS: routes } = await import('../rest/routes/by-variant.js');
  const since = firstDayOf(options.days);
  const callers = await withStore((store) => store.usage.callers({ sinceDay: since, routes }));
  if (options.json) {
    printJson({
      since,
      routes: routes.map((route) => ({
        route,
        callers: callers
          .filter((c) => c.route === route)
          .map((c) => ({
            account_id: c.accountId,
            account_name: c.accountName,
            key_id: c.keyId,
            key_name: c.keyName,
            requests: c.requests,
            last_at: isoOrNull(c.lastAt),
          })),
      })),
    });
    return;
  }
  for (const route of routes) {
    const of = callers.filter((c) => c.route === route);
    if (of.length === 0) {
      printLines(`${route}: no calls since ${since}`, '');
      continue;
    }
    printLines(`${route}: ${of.reduce((n, c) => n + c.requests, 0)} calls from ${of.length} keys since ${since}`);
    printTable(
      ['  ACCOUNT', 'KEY', 'REQUESTS', 'LAST'],
      of.map((c) => [`  ${c.accountId} (${c.accountName ?? '?'})`, `${c.keyId} (${c.keyName ?? '?'})`, String(c.requests), isoOrNull(c.lastAt)!]),
    );
    printLines('');
  }
}
