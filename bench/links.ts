/**
 * The market links rows of `npm run bench`: what linking costs at 10 000 + 10 000 markets. Two
 * venues' markets are generated in the wording of the real pairs in ../shared/links (Kalshi's and
 * Polymarket's hourly crypto prices, games listed once per team against once per fixture, daily
 * temperature ranges, golf finishes), dense where real venues are dense: dozens of thresholds per
 * asset and hour, one city's ranges per day. The real linker runs over a real SQLite store: the
 * first venue's batch, then the second's (which judges every pair), then the second again unchanged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { MarketText } from '../src/domain/links.js';
import { trackedSymbolOf } from '../src/ingest/claim-symbols.js';
import { createMarketLinker } from '../src/ingest/market-linker.js';
import { blockingKeys } from '../src/links/blocking.js';
import { priceClaim } from '../src/links/claims.js';
import { judgePair } from '../src/links/judge.js';
import { createStore, openStore } from '../src/store/index.js';

const PER_VENUE = 10_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const CITIES = ['Miami', 'Chicago', 'Denver', 'Austin', 'Seattle', 'Boston', 'Phoenix', 'Atlanta', 'Dallas', 'Houston'];
const PLACES = ['Riverton', 'Lakeside', 'Northgate', 'Harbor City', 'Westfield', 'Summit', 'Brookhaven', 'Fairview', 'Kingsport', 'Ashford'];
const NICKS = ['Hawks', 'Rangers', 'Comets', 'Miners', 'Pilots', 'Bears', 'Royals', 'Storm', 'Giants', 'Wolves'];
const FIRST = ['Alex', 'Sam', 'Jordan', 'Casey', 'Taylor', 'Morgan', 'Riley', 'Jamie', 'Avery', 'Quinn'];
const LAST = ['Hossler', 'Kanaya', 'Kitayama', 'Crowe', 'Larsen', 'Okafor', 'Varga', 'Moreau', 'Tanaka', 'Silva'];

const day = (d: number) => Date.UTC(2026, 4, 1) + d * 86_400_000;
const dateOf = (ms: number) => `${MONTHS[new Date(ms).getUTCMonth()]} ${new Date(ms).getUTCDate()}`;

/** Kalshi and Polymarket listings of the same questions, and near misses (another hour, threshold, side or range). */
function generate(): { kalshi: MarketText[]; poly: MarketText[] } {
  const kalshi: MarketText[] = [];
  const poly: MarketText[] = [];
  // Crypto: 2 assets x 25 days x 10 hours x 10 thresholds on Kalshi; Polymarket lists 8 of the 10, one a step off.
  for (const [asset, name, base, step] of [
    ['BTC', 'Bitcoin', 80_000, 400],
    ['ETH', 'Ethereum', 2_000, 50],
  ] as const) {
    for (let d = 0; d < 25; d++) {
      for (let h = 8; h < 18; h++) {
        const at = day(d) + (h + 4) * 3_600_000;
        for (let i = 0; i < 10; i++) {
          const threshold = base + i * step;
          const hour12 = `${h % 12 || 12}${h < 12 ? 'am' : 'pm'}`;
          kalshi.push({
            venue: 'kalshi',
            id: `KX${asset}D-26${MONTHS[4 + Math.floor(d / 31)]!.toUpperCase()}${String((d % 31) + 1).padStart(2, '0')}${String(h).padStart(2, '0')}-T${threshold - 0.01}`,
            question: `${name} price on ${dateOf(at)}, 2026 at ${hour12} EDT? — $${threshold.toLocaleString('en-US')} or above`,
            rules: '',
            closeTime: at,
            strike: { type: 'greater', floor: threshold - 0.01, cap: null },
          });
          if (i < 8) {
            const shown = i === 7 ? threshold + step / 2 : threshold;
            poly.push({
              venue: 'polymarket',
              id: `p-${asset}-${d}-${h}-${i}`,
              question: `${name} above ${shown.toLocaleString('en-US')} on ${dateOf(at)}, ${hour12.toUpperCase()} ET?`,
              rules: '',
              closeTime: at,
            });
          }
        }
      }
    }
  }
  // Games: Kalshi one market per team, Polymarket one per fixture ("B vs. A", YES for its first team).
  for (let g = 0; kalshi.length < PER_VENUE - 1_500; g++) {
    const a = `${PLACES[g % 10]} ${NICKS[Math.floor(g / 10) % 10]}`;
    const b = `${PLACES[(g + 3) % 10]} ${NICKS[(Math.floor(g / 10) + 5) % 10]}`;
    const at = day(g % 60) + 23 * 3_600_000;
    const code = (t: string) => t.replace(/[^A-Z]/g, '').slice(0, 3);
    const event = `KXBBGAME-26MAY${String((g % 28) + 1).padStart(2, '0')}${g}${code(a)}${code(b)}`;
    for (const team of [a, b])
      kalshi.push({ venue: 'kalshi', id: `${event}-${code(team)}`, question: `${a} vs ${b}`, rules: '', closeTime: at, yesSide: team });
    poly.push({ venue: 'polymarket', id: `p-game-${g}`, question: `${b} vs. ${a}`, rules: '', closeTime: at, yesSide: b });
  }
  // Temperatures: one range per city and day on each side, Polymarket's a range off every third time.
  for (let i = 0; kalshi.length < PER_VENUE; i++) {
    const city = CITIES[i % 10]!;
    const at = day(Math.floor(i / 10) % 60) + 20 * 3_600_000;
    const low = 60 + (i % 7) * 2;
    kalshi.push({
      venue: 'kalshi',
      id: `KXHIGH${city.toUpperCase()}-${i}-B${low}.5`,
      question: `Highest temperature in ${city} on ${dateOf(at)}, 2026? — ${low}° to ${low + 1}°`,
      rules: '',
      closeTime: at,
    });
    const shown = i % 3 === 0 ? low + 2 : low;
    poly.push({
      venue: 'polymarket',
      id: `p-temp-${i}`,
      question: `Will the highest temperature in ${city} be between ${shown}-${shown + 1}°F on ${dateOf(at)}?`,
      rules: '',
      closeTime: at,
    });
  }
  // Golf: Polymarket fills its side with finishes of players Kalshi lists in the top 10.
  for (let i = 0; poly.length < PER_VENUE; i++) {
    const player = `${FIRST[i % 10]} ${LAST[Math.floor(i / 10) % 10]}`;
    const top = i % 2 === 0 ? 10 : 20;
    poly.push({
      venue: 'polymarket',
      id: `p-golf-${i}`,
      question: `Will ${player} finish in the Top ${top} at the 2026 Riverton Classic?`,
      rules: '',
      closeTime: day(40),
    });
  }
  return { kalshi: kalshi.slice(0, PER_VENUE), poly: poly.slice(0, PER_VENUE) };
}

export async function benchLinks() {
  const { kalshi, poly } = generate();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-bench-links-'));
  const store = createStore(await openStore({ dataDir }));
  let judgeMs = 0;
  let judgeCalls = 0;
  const timedJudge: typeof judgePair = (a, b) => {
    const started = performance.now();
    try {
      return judgePair(a, b);
    } finally {
      judgeMs += performance.now() - started;
      judgeCalls++;
    }
  };
  const linker = createMarketLinker({
    repo: store.marketLinks,
    rules: { judge: timedJudge, keysOf: blockingKeys, claimOf: (t) => priceClaim(t, trackedSymbolOf) },
    now: Date.now,
    logger: pino({ level: 'silent' }),
  });
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  // The linker yields between markets, so this samples during the work too.
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 50);
  const step = async (name: string, texts: MarketText[]) => {
    const [calls, ms] = [judgeCalls, judgeMs];
    const started = performance.now();
    const judged = await linker.accept(texts);
    const wall = performance.now() - started;
    return {
      step: name,
      markets: texts.length,
      'pairs judged': judged,
      'wall s': +(wall / 1000).toFixed(2),
      'judge s': +((judgeMs - ms) / 1000).toFixed(2),
      'µs a pair': judgeCalls > calls ? Math.round(((judgeMs - ms) * 1000) / (judgeCalls - calls)) : 0,
    };
  };
  try {
    const rows = [await step('kalshi, 10 000 new', kalshi), await step('polymarket, 10 000 new', poly), await step('polymarket again, unchanged', poly)];
    clearInterval(sampler);
    const byRelation = await store.marketLinks.countVerdicts();
    const claims = (await store.marketLinks.claimsOf([...kalshi, ...poly].map((t) => `${t.venue}:${t.id}`))).size;
    return {
      rows,
      stored: { ...byRelation, claims, 'all pairs would be': PER_VENUE * PER_VENUE, 'peak RSS growth MB': Math.round((rssPeak - rssBefore) / 1e6) },
    };
  } finally {
    clearInterval(sampler);
    await store.connection.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
