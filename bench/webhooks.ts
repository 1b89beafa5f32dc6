/**
 * The webhook rows of `npm run bench`, in one process as `start` runs them (the store, the alert
 * evaluator, the delivery worker), the receiver in another: 1 000 alerts triggered in one
 * evaluation and delivered to a local receiver (time to the last delivery, deliveries per second),
 * then the ingest step (quotes written, alerts evaluated) timed without deliveries and again while
 * 1 000 deliveries wait on a receiver that takes 200 ms per answer.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createAlertEvaluator } from '../src/alerts/alert-evaluator.js';
import { createBriefService } from '../src/analytics/brief-service.js';
import type { Quote } from '../src/domain/market.js';
import { createStore, openStore, type Store } from '../src/store/index.js';
import { createDeliveryWorker } from '../src/webhooks/delivery-worker.js';
import { createConnectAgents } from '../src/webhooks/destination.js';
import { percentile, ROOT } from './harness.js';
import { accountScope } from '../src/domain/scope.js';

const TRIGGERS = 1_000;
const SYMBOLS = ['BTC/USD', 'ETH/USD', 'SOL/USD', 'XRP/USD', 'EUR/USD', 'GBP/USD', 'USD/JPY', 'AAPL/USD', 'MSFT/USD', 'NVDA/USD'];
/** Ingest steps timed, one every 10 ms: 3 s, long enough for the slow receiver to answer about 60 times meanwhile. */
const INGEST_STEPS = 300;
const STEP_GAP_MS = 10;
const POLICY = { allowHttp: true, allowedNetworks: ['127.0.0.0/8'] };
const logger = pino({ level: 'silent' });

async function startReceiver(delayMs: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/webhook-receiver.mjs'), String(delayMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d).trim())));
  return { url: `http://127.0.0.1:${port}/hook`, child };
}

const quotesAt = (at: number, price: number): Quote[] => SYMBOLS.map((symbol) => ({ symbol, price, change24h: 0.5, volume24h: 1_000, observedAt: at }));

async function seed(store: Store, url: string, now: number) {
  await store.markets.upsertMarkets(
    SYMBOLS.map((symbol) => ({ symbol, name: symbol, type: 'crypto' as const, source: 'demo', staleAfterMs: 60_000, halted: false })),
  );
  const { account } = await store.accounts.createAccountWithKey({
    name: 'bench',
    marketDataPlan: 'enterprise',
    predictionPlan: 'none',
    keyHash: `bench-${now}`,
    displayPrefix: 'mgw_bench',
    now,
  });
  await store.webhooks.createEndpoint({
    accountId: account.id,
    url,
    events: ['price_alert.triggered'],
    secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
    now,
  });
  // Alerts that never trigger, so that each ingest step evaluates some.
  for (const symbol of SYMBOLS) {
    for (let i = 0; i < 10; i++)
      await store.priceAlerts.create({ accountId: account.id, symbol, kind: 'price_above', threshold: 1e12, signal: null, expiresAt: null, now });
  }
  return account.id;
}

export interface WebhookBenchRow {
  measure: string;
  value: number;
  unit: string;
}

export async function benchWebhooks(): Promise<WebhookBenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-bench-webhooks-'));
  const fast = await startReceiver(0);
  const slow = await startReceiver(200);
  const store = createStore(await openStore({ dataDir }));
  const agents = createConnectAgents(POLICY);
  let now = Date.now();
  const worker = createDeliveryWorker({
    repo: store.webhooks,
    agents,
    timeoutMs: 10_000,
    concurrency: 32,
    perEndpoint: 4,
    pollMs: 1_000,
    retentionMs: 30 * 86_400_000,
    userAgent: 'bench',
    now: () => now,
    logger,
  });
  const evaluator = createAlertEvaluator({ alerts: store.priceAlerts, briefs: createBriefService(store.markets), logger, onTransition: () => worker.wake() });
  try {
    const accountId = await seed(store, fast.url, now);
    /** One ingest step: the batch written, the active alerts evaluated (what a demo tick does). */
    const ingestStep = async () => {
      now += 1;
      const batch = quotesAt(now, 100);
      const started = performance.now();
      await store.markets.upsertQuotes(batch);
      await evaluator.evaluate(batch, now);
      return performance.now() - started;
    };
    const ingestLatency = async () => {
      const times: number[] = [];
      for (let i = 0; i < INGEST_STEPS; i++) {
        times.push(await ingestStep());
        await new Promise((r) => setTimeout(r, STEP_GAP_MS));
      }
      return times.sort((a, b) => a - b);
    };

    // 1 000 triggers in one evaluation, to the fast receiver.
    for (let i = 0; i < TRIGGERS; i++)
      await store.priceAlerts.create({ accountId, symbol: 'BTC/USD', kind: 'price_above', threshold: 50, signal: null, expiresAt: null, now });
    worker.start();
    const started = performance.now();
    await evaluator.evaluate(quotesAt(now, 100), now);
    const evaluated = performance.now() - started;
    await worker.drain();
    const lastDelivery = performance.now() - started;

    const quiet = await ingestLatency();
    // The same triggers again, to a receiver that takes 200 ms per answer: deliveries wait, ingest goes on.
    await store.webhooks.createEndpoint({
      accountId,
      url: slow.url,
      events: ['price_alert.triggered'],
      secret: `whsec_${Buffer.alloc(24, 8).toString('base64')}`,
      now,
    });
    const endpoints = await store.webhooks.listEndpoints(accountScope(accountId));
    await store.webhooks.disableEndpoint(endpoints[0]!.id, 'bench: only the slow receiver now', now);
    for (let i = 0; i < TRIGGERS; i++)
      await store.priceAlerts.create({ accountId, symbol: 'ETH/USD', kind: 'price_above', threshold: 50, signal: null, expiresAt: null, now });
    await evaluator.evaluate(quotesAt(now, 100), now);
    const backlogBefore = (await store.webhooks.queueStats()).pending;
    const busy = await ingestLatency();
    const sentMeanwhile = backlogBefore - (await store.webhooks.queueStats()).pending;

    return [
      { measure: `${TRIGGERS} alert triggers: evaluation with their outbox writes`, value: Math.round(evaluated), unit: 'ms' },
      { measure: `${TRIGGERS} alert triggers: time to the last delivery (one endpoint, 4 at a time)`, value: Math.round(lastDelivery), unit: 'ms' },
      { measure: 'deliveries per second', value: Math.round((TRIGGERS / lastDelivery) * 1_000), unit: '/s' },
      { measure: 'ingest step p50, no deliveries', value: Number(percentile(quiet, 0.5).toFixed(2)), unit: 'ms' },
      { measure: 'ingest step p50, receiver slow (200 ms per answer)', value: Number(percentile(busy, 0.5).toFixed(2)), unit: 'ms' },
      { measure: 'ingest step p99, no deliveries', value: Number(percentile(quiet, 0.99).toFixed(2)), unit: 'ms' },
      { measure: 'ingest step p99, receiver slow (200 ms per answer)', value: Number(percentile(busy, 0.99).toFixed(2)), unit: 'ms' },
      { measure: 'ingest p50 ratio, slow receiver / none', value: Number((percentile(busy, 0.5) / percentile(quiet, 0.5)).toFixed(2)), unit: 'x' },
      { measure: 'deliveries to the slow receiver during those ingest steps', value: sentMeanwhile, unit: '' },
    ];
  } finally {
    await worker.stop();
    agents.destroy();
    await store.connection.close();
    fast.child.kill();
    slow.child.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
