/**
 * How HTTP instances learn that the worker wrote new data, without polling the database per
 * request: PostgreSQL LISTEN/NOTIFY on one channel. The worker notifies after each ingest batch
 * (at most every `throttleMs`); listeners reload their read models. A listener whose connection
 * drops reconnects and reloads once, so nothing written meanwhile is missed. Price alerts changing
 * state are announced one by one, for live subscribers (those missed during a reconnection are not
 * sent again: the alert's state is in the store for `priceAlerts`).
 */
import type pg from 'pg';
import type { Logger } from 'pino';

const CHANGE_CHANNEL = 'mgw_changes';

type ChangeKind = 'market-data' | 'prediction';

interface ChangeNotifier {
  changed(kind: ChangeKind): void;
  /** A price alert changed state at `at`: sent at once, for live subscribers on other instances. */
  priceAlertChanged(alertId: string, at: number): void;
}

/** Coalesces notices: one NOTIFY per kind per `throttleMs`. */
export function createChangeNotifier(pool: pg.Pool, logger: Logger, throttleMs = 250): ChangeNotifier {
  const due = new Set<ChangeKind>();
  let _timer: NodeJS.Timeout | undefined;
  function send(): void {
    _timer = undefined;
    const kinds = [...due];
    due.clear();
    for (const kind of kinds) {
      // The channel is database-wide: the payload names the schema, so other deployments ignore it.
      pool
        .query(`select pg_notify($1, current_schema() || ':' || $2)`, [CHANGE_CHANNEL, kind])
        .catch((error: Error) => logger.warn({ reason: error.message }, 'change notice not sent'));
    }
  }
  return {
    changed(kind) {
      due.add(kind);
      _timer ??= setTimeout(send, throttleMs).unref();
    },
    priceAlertChanged(alertId, at) {
      pool
        .query(`select pg_notify($1, current_schema() || ':price-alert:' || $2)`, [CHANGE_CHANNEL, `${alertId}:${at}`])
        .catch((error: Error) => logger.warn({ reason: error.message }, 'price alert notice not sent'));
    },
  };
}

interface ChangeListenerOptions {
  databaseUrl: string;
  logger: Logger;
  onChange: (kind: ChangeKind) => Promise<void>;
  /** Another instance's jobs moved a price alert (its id, and when). */
  onPriceAlert?: (alertId: string, at: number) => void;
  /** Wait before reconnecting a dropped listener (default 1 s). */
  retryMs?: number;
}

export function createChangeListener(options: ChangeListenerOptions) {
  const { logger } = options;
  let client: pg.Client | undefined;
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;

  const reload = (kind: ChangeKind) => options.onChange(kind).catch((error: Error) => logger.warn({ kind, reason: error.message }, 'read model reload failed'));

  async function connect(reconnecting: boolean): Promise<void> {
    // pg is loaded with the first connection (an embedded installation never makes one).
    const { default: pg } = await import('pg');
    if (stopped) return;
    const c = new pg.Client({
      connectionString: options.databaseUrl,
      connectionTimeoutMillis: 2_000,
      keepAlive: true,
      application_name: 'market-gateway change listener',
    });
    const retry = () => {
      if (client !== c) return;
      client = undefined;
      void c.end().catch(() => undefined);
      if (!stopped) timer = setTimeout(() => void connect(true), options.retryMs ?? 1_000).unref();
    };
    c.on('error', (error) => {
      logger.warn({ reason: error.message }, 'change listener lost its connection; reconnecting');
      retry();
    });
    let schema: string | undefined;
    c.on('notification', (n) => {
      const [from, kind, alertId, at] = (n.payload ?? '').split(':');
      if (n.channel !== CHANGE_CHANNEL || from !== schema) return;
      if (kind === 'market-data' || kind === 'prediction') void reload(kind);
      else if (kind === 'price-alert' && alertId && Number.isFinite(Number(at))) options.onPriceAlert?.(alertId, Number(at));
    });
    client = c;
    try {
      await c.connect();
      schema = (await c.query<{ schema: string }>('select current_schema() as schema')).rows[0]?.schema;
      await c.query(`listen ${CHANGE_CHANNEL}`);
      // Whatever was written while we were not listening.
      if (reconnecting) await Promise.all([reload('market-data'), reload('prediction')]);
    } catch (error) {
      logger.warn({ reason: (error as Error).message }, 'change listener could not connect; retrying');
      retry();
    }
  }

  return {
    async start() {
      stopped = false;
      await connect(false);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
