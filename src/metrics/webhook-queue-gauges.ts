/**
 * The webhook queue's gauges: its depth and the age of its oldest pending delivery, read from the
 * store at scrape time, so every instance shows the shared queue; a failed read leaves them unset.
 */
import { Gauge, type Registry } from 'prom-client';

type QueueStats = { pending: number; oldestCreatedAt: number | null };

/** Registers the queue's gauges; returns where its stats are read from (an empty queue until it is called). */
export function registerWebhookQueueGauges(registry: Registry): (stats: () => Promise<QueueStats>) => void {
  let webhookQueue: () => Promise<QueueStats> = async () => ({ pending: 0, oldestCreatedAt: null });
  // Both gauges are collected in one scrape: one read of the store serves them.
  let read: { at: number; stats: Promise<QueueStats | undefined> } | undefined;
  const queueStats = () => {
    if (!read || Date.now() - read.at > 1_000) read = { at: Date.now(), stats: webhookQueue().catch(() => undefined) };
    return read.stats;
  };
  new Gauge({
    name: 'mgw_webhook_queue_depth',
    help: 'Webhook deliveries pending (due now or waiting for a retry)',
    registers: [registry],
    async collect() {
      const stats = await queueStats();
      if (stats) this.set(stats.pending);
    },
  });
  new Gauge({
    name: 'mgw_webhook_oldest_pending_age_seconds',
    help: 'Age of the oldest pending webhook delivery (0 when none is pending)',
    registers: [registry],
    async collect() {
      const stats = await queueStats();
      if (stats) this.set(stats.oldestCreatedAt === null ? 0 : Math.max(0, (Date.now() - stats.oldestCreatedAt) / 1000));
    },
  });

  return (stats) => {
    webhookQueue = stats;
  };
}
