/**
 * Schema migrations, written once with Kysely's schema builder so that the same
 * steps run on SQLite and PostgreSQL. Column types are chosen to mean the same on
 * both: `bigint` (epoch ms), `double precision`, `text`, `integer` for booleans.
 */
import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';

export type Engine = 'sqlite' | 'postgres';

/** The one place the engines differ: an auto-incrementing integer key. */
function serialColumn(engine: Engine): [string, (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder] {
  return engine === 'sqlite' ? ['integer', (c) => c.primaryKey().autoIncrement()] : ['bigserial', (c) => c.primaryKey()];
}

const initial = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    const [serialType, serial] = serialColumn(engine);
    await db.schema
      .createTable('accounts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('market_data_plan', 'text', (c) => c.notNull())
      .addColumn('prediction_plan', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('display_prefix', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema.createIndex('api_keys_revoked_at').on('api_keys').column('revoked_at').execute();
    await db.schema
      .createTable('markets')
      .addColumn('symbol', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('stale_after_ms', 'bigint', (c) => c.notNull())
      .addColumn('halted', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('quotes')
      .addColumn('symbol', 'text', (c) => c.primaryKey().references('markets.symbol'))
      .addColumn('price', 'double precision', (c) => c.notNull())
      .addColumn('change_24h', 'double precision', (c) => c.notNull())
      .addColumn('volume_24h', 'double precision', (c) => c.notNull())
      .addColumn('observed_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('candles')
      .addColumn('symbol', 'text', (c) => c.notNull().references('markets.symbol'))
      .addColumn('interval', 'text', (c) => c.notNull())
      .addColumn('open_time', 'bigint', (c) => c.notNull())
      .addColumn('open', 'double precision', (c) => c.notNull())
      .addColumn('high', 'double precision', (c) => c.notNull())
      .addColumn('low', 'double precision', (c) => c.notNull())
      .addColumn('close', 'double precision', (c) => c.notNull())
      .addColumn('volume', 'double precision', (c) => c.notNull())
      .addPrimaryKeyConstraint('candles_pk', ['symbol', 'interval', 'open_time'])
      .execute();
    await db.schema
      .createTable('price_alerts')
      .addColumn('seq', serialType as 'integer', serial)
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('symbol', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('threshold', 'double precision')
      .addColumn('signal', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint')
      .addColumn('triggered_at', 'bigint')
      .execute();
    await db.schema.createIndex('price_alerts_account').on('price_alerts').columns(['account_id', 'created_at', 'seq']).execute();
    await db.schema.createIndex('price_alerts_status').on('price_alerts').column('status').execute();
  },
});

/** Variant B: prediction markets, their hourly history, the movement detector's state and output, briefs. */
const prediction = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    const [serialType, serial] = serialColumn(engine);
    await db.schema
      .createTable('prediction_markets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('question', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('topic', 'text')
      .addColumn('prob', 'double precision')
      .addColumn('volume_24h', 'double precision')
      .addColumn('updated_at', 'bigint')
      .execute();
    await db.schema
      .createTable('prediction_history')
      .addColumn('market_id', 'text', (c) => c.notNull().references('prediction_markets.id'))
      .addColumn('hour_start', 'bigint', (c) => c.notNull())
      .addColumn('prob', 'double precision', (c) => c.notNull())
      .addColumn('observed_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('prediction_history_pk', ['market_id', 'hour_start'])
      .execute();
    await db.schema
      .createTable('movement_baselines')
      .addColumn('market_id', 'text', (c) => c.primaryKey().references('prediction_markets.id'))
      .addColumn('pct', 'double precision', (c) => c.notNull())
      .addColumn('observed_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('movement_alerts')
      .addColumn('seq', serialType as 'integer', serial)
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('market_id', 'text', (c) => c.notNull().references('prediction_markets.id'))
      .addColumn('question', 'text', (c) => c.notNull())
      .addColumn('old_pct', 'double precision', (c) => c.notNull())
      .addColumn('new_pct', 'double precision', (c) => c.notNull())
      .addColumn('delta_pts', 'double precision', (c) => c.notNull())
      .addColumn('detected_at', 'bigint', (c) => c.notNull())
      // One movement per market and observation, however many detectors see it.
      .addUniqueConstraint('movement_alerts_once', ['market_id', 'detected_at'])
      .execute();
    await db.schema.createIndex('movement_alerts_recent').on('movement_alerts').columns(['detected_at', 'seq']).execute();
    await db.schema
      .createTable('morning_briefs')
      .addColumn('date', 'text', (c) => c.primaryKey())
      .addColumn('brief', 'text', (c) => c.notNull())
      .addColumn('writer', 'text', (c) => c.notNull())
      .addColumn('generated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
});

/** Day quota counts kept durable beside Redis, so a Redis restart does not hand out a fresh day. */
const quotaDays: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('quota_days')
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('product', 'text', (c) => c.notNull())
      .addColumn('day_index', 'integer', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('quota_days_pk', ['account_id', 'product', 'day_index'])
      .execute();
  },
};

/**
 * Live prediction sources: the platform's own 24-hour move per market, and when each source's last
 * complete answer was taken (a market absent from it is no longer ranked).
 */
const predictionSweeps: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('prediction_markets').addColumn('source_move_24h', 'double precision').execute();
    await db.schema
      .createTable('prediction_sweeps')
      .addColumn('source', 'text', (c) => c.primaryKey())
      .addColumn('swept_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};

/** Tables the background jobs write; the fence below guards them (PostgreSQL only: SQLite has one process and no lease). */
export const FENCED_TABLES = [
  'markets',
  'quotes',
  'candles',
  'price_alerts',
  'prediction_markets',
  'prediction_history',
  'movement_baselines',
  'movement_alerts',
  'prediction_sweeps',
] as const;

/**
 * The jobs lease with a deadline, and its fence. The worker holding the lease renews `renewed_at`
 * every second; a standby that sees it go stale takes the lease over. Sessions of the jobs' pool
 * say whose they are (`mgw.jobs_holder`); a write to a jobs table from a session whose holder no
 * longer holds the lease is refused, so a leader that wakes up after losing the lease cannot write
 * as leader. Other sessions (requests, the CLI) do not set it and are not checked.
 */
const jobsLease = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    if (engine !== 'postgres') return;
    await db.schema
      .createTable('jobs_lease')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('renewed_at', 'bigint', (c) => c.notNull())
      .addColumn('backend_pid', 'integer', (c) => c.notNull())
      .execute();
    await sql`
      create function mgw_jobs_fence() returns trigger language plpgsql as $$
      declare me text := current_setting('mgw.jobs_holder', true);
      begin
        if me is not null and me <> '' and not exists (select 1 from jobs_lease where name = 'jobs' and holder = me) then
          raise exception 'fenced: this process no longer holds the jobs lease (%)', me using errcode = '55MGW';
        end if;
        return null;
      end $$`.execute(db);
    for (const table of FENCED_TABLES) await fence(db, table);
  },
});

/** Refuses, before each statement on `table`, a jobs session whose holder lost the lease. */
const fence = (db: Kysely<unknown>, table: string) =>
  sql`create trigger ${sql.raw(`mgw_fence_${table}`)} before insert or update or delete on ${sql.table(table)} for each statement execute function mgw_jobs_fence()`.execute(
    db,
  );

/** The webhook tables the jobs write (deliveries' outcomes, endpoints they disable): fenced like the others. */
export const WEBHOOK_FENCED_TABLES = ['webhook_endpoints', 'webhook_events', 'webhook_deliveries'] as const;

/**
 * Enterprise webhooks: endpoints, the outbox of events (written in the transaction that moves the
 * alert), and one delivery per event and endpoint. The queue has two levels, both indexed: the
 * endpoints by when their next delivery is due (`next_due_at`, kept by the store), then each
 * endpoint's pending deliveries by due time (a partial index), so the worker never reads delivered
 * history, nor the backlog of an endpoint it is not sending to.
 */
const webhooks = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    const [serialType, serial] = serialColumn(engine);
    await db.schema
      .createTable('webhook_endpoints')
      .addColumn('seq', serialType as 'integer', serial)
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('previous_secret', 'text')
      .addColumn('previous_secret_until', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('disabled_at', 'bigint')
      .addColumn('disabled_reason', 'text')
      .addColumn('next_due_at', 'bigint')
      .addColumn('queue_version', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('webhook_endpoints_account').on('webhook_endpoints').columns(['account_id', 'seq']).execute();
    await db.schema.createIndex('webhook_endpoints_due').on('webhook_endpoints').column('next_due_at').where(sql.ref('next_due_at'), 'is not', null).execute();
    await db.schema
      .createTable('webhook_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('seq', serialType as 'integer', serial)
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id'))
      .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
      .addColumn('last_attempt_at', 'bigint')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('last_response', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_queue')
      .on('webhook_deliveries')
      .columns(['endpoint_id', 'next_attempt_at', 'seq'])
      .where(sql.ref('status'), '=', 'pending')
      .execute();
    await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'seq']).execute();
    await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').column('event_id').execute();
    await db.schema
      .createIndex('webhook_deliveries_finished')
      .on('webhook_deliveries')
      .column('finished_at')
      .where(sql.ref('finished_at'), 'is not', null)
      .execute();
    await db.schema.createIndex('webhook_events_created').on('webhook_events').column('created_at').execute();
    if (engine !== 'postgres') return;
    for (const table of WEBHOOK_FENCED_TABLES) await fence(db, table);
  },
});

/** Charts of a prediction market draw its volume beside its probability: each hour keeps both. */
const historyVolume: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('prediction_history').addColumn('volume_24h', 'double precision').execute();
  },
};

/**
 * Each account's price alerts carry a version, bumped in the transaction of every change (created,
 * cancelled, triggered, expired), so answers about them can be cached per account by any process.
 */
const alertsVersion: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('accounts')
      .addColumn('alerts_version', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};

/**
 * Trusted documents: the manifest of operations clients may send, replaced whole by each
 * load, beside a one-row generation counter that the load bumps in its transaction, so instances
 * learn of a new manifest with one primary-key read.
 */
const trustedDocuments: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('trusted_documents')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('type', 'text')
      .addColumn('loaded_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('trusted_documents_meta')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('loaded_at', 'bigint')
      .addCheckConstraint('trusted_documents_meta_one_row', sql`id = 1`)
      .execute();
    await sql`insert into trusted_documents_meta (id, version, loaded_at) values (1, 0, null)`.execute(db);
  },
};

/** A key may be exempt from trusted-document enforcement: 1 lets it send any operation. */
const keyAnyOperation: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('api_keys')
      .addColumn('any_operation', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};

/**
 * Usage records: requests per UTC day, account, key, listener and route (the REST route
 * id, `A GET /api/v1/brief`, or the GraphQL operation's name), added to by every instance in
 * batches, with when the last one was counted. The day leads the key, so pruning old days and
 * reading a range of days use it.
 */
const usageDays: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('usage_days')
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('listener', 'text', (c) => c.notNull())
      .addColumn('route', 'text', (c) => c.notNull())
      .addColumn('requests', 'bigint', (c) => c.notNull())
      .addColumn('last_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('usage_days_pk', ['day', 'account_id', 'key_id', 'listener', 'route'])
      .execute();
    await db.schema.createIndex('usage_days_account').on('usage_days').columns(['account_id', 'day']).execute();
  },
};

/**
 * The account dashboard: people who sign in (one per account), their server-side
 * sessions, one-time links (invitations, password resets, email verification), recovery codes for
 * two-factor sign-in, and each account's activity log. Accounts may be disabled, and `changed_at`
 * (bumped by a plan change or a disable) tells running servers to re-read the account's keys; keys
 * may expire.
 */
const accountDashboard = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    const [serialType, serial] = serialColumn(engine);
    await db.schema.alterTable('accounts').addColumn('disabled_at', 'bigint').execute();
    await db.schema
      .alterTable('accounts')
      .addColumn('changed_at', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('accounts_changed_at').on('accounts').column('changed_at').execute();
    await db.schema.alterTable('api_keys').addColumn('expires_at', 'bigint').execute();
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().unique().references('accounts.id'))
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('email_verified_at', 'bigint')
      .addColumn('totp_secret', 'text')
      .addColumn('totp_enabled_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('password_changed_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('recovery_codes')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
      .execute();
    await db.schema
      .createTable('sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('stage', 'text', (c) => c.notNull())
      .addColumn('csrf_token', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('ended_at', 'bigint')
      .addColumn('client_address', 'text', (c) => c.notNull())
      .addColumn('user_agent', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
    await db.schema
      .createTable('one_time_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema
      .createTable('account_activity')
      .addColumn('id', serialType as 'integer', serial)
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull())
      .addColumn('client_address', 'text')
      .execute();
    await db.schema.createIndex('account_activity_account').on('account_activity').columns(['account_id', 'at']).execute();
  },
});

/**
 * The keys of an account: its live keys are counted before each new one (at most 20),
 * listed in the dashboard, and re-read by every instance's poll when the account changes. Without
 * this index each of those read every key of the installation.
 */
const apiKeysAccount: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();
  },
};

/**
 * The revocation poll (`keyChangesSince`) asks for keys with `revoked_at IS NULL` of accounts changed
 * lately. With a full index on `revoked_at`, SQLite's planner took that IS NULL for an equality and
 * walked every live key (35 ms with 100 000 keys, once a second, blocking the event loop; the tail at
 * scale in docs/performance-log.md). Indexing only revoked keys leaves it the accounts' `changed_at`
 * index, whatever the statistics say; the poll's other half (`revoked_at > ?`) still uses this one.
 */
const revokedKeysIndex: Migration = {
  async up(db: Kysely<unknown>) {
    // Each statement commits on its own on SQLite (no transactional DDL in Kysely's adapter): a start
    // stopped between the two runs this again, which must not fail on the index already dropped.
    await db.schema.dropIndex('api_keys_revoked_at').ifExists().execute();
    await db.schema.createIndex('api_keys_revoked_at').ifNotExists().on('api_keys').column('revoked_at').where(sql.ref('revoked_at'), 'is not', null).execute();
  },
};

/**
 * Market links (docs/links.md): what each venue publishes about a market (the judge's input, with
 * the price claim read from it), the judge's verdicts on candidate pairs (none for `different`),
 * and the operator's decisions, which win over the judge. A pair is stored once, its ids ordered.
 * The jobs write the first two (fenced like their other tables); the operator's CLI the third.
 */
const marketLinks = (engine: Engine): Migration => ({
  // Each statement commits on its own on SQLite: a start stopped part way runs this again, which
  // must not fail on what the first run made (PostgreSQL runs it in one transaction).
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('prediction_market_texts')
      .ifNotExists()
      .addColumn('market_id', 'text', (c) => c.primaryKey())
      .addColumn('venue', 'text', (c) => c.notNull())
      .addColumn('question', 'text', (c) => c.notNull())
      .addColumn('rules', 'text', (c) => c.notNull())
      .addColumn('close_time', 'bigint')
      .addColumn('expiry_time', 'bigint')
      .addColumn('yes_side', 'text')
      .addColumn('strike_type', 'text')
      .addColumn('strike_floor', 'double precision')
      .addColumn('strike_cap', 'double precision')
      .addColumn('resolution_source', 'text')
      .addColumn('text_hash', 'text', (c) => c.notNull())
      .addColumn('claim_asset', 'text')
      .addColumn('claim', 'text')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('prediction_market_texts_claim_asset').ifNotExists().on('prediction_market_texts').column('claim_asset').execute();
    await db.schema
      .createTable('market_links')
      .ifNotExists()
      .addColumn('a_id', 'text', (c) => c.notNull())
      .addColumn('b_id', 'text', (c) => c.notNull())
      .addColumn('relation', 'text', (c) => c.notNull())
      .addColumn('implies', 'text')
      .addColumn('evidence', 'text', (c) => c.notNull())
      .addColumn('basis_risk', 'text', (c) => c.notNull())
      .addColumn('missing', 'text', (c) => c.notNull())
      .addColumn('decided_by', 'text', (c) => c.notNull())
      .addColumn('decided_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('market_links_pk', ['a_id', 'b_id'])
      .execute();
    await db.schema.createIndex('market_links_b').ifNotExists().on('market_links').column('b_id').execute();
    await db.schema
      .createTable('market_link_decisions')
      .ifNotExists()
      .addColumn('a_id', 'text', (c) => c.notNull())
      .addColumn('b_id', 'text', (c) => c.notNull())
      .addColumn('relation', 'text', (c) => c.notNull())
      .addColumn('decided_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('market_link_decisions_pk', ['a_id', 'b_id'])
      .execute();
    await db.schema.createIndex('market_link_decisions_b').ifNotExists().on('market_link_decisions').column('b_id').execute();
    if (engine !== 'postgres') return;
    for (const table of LINK_FENCED_TABLES) {
      await sql`drop trigger if exists ${sql.raw(`mgw_fence_${table}`)} on ${sql.table(table)}`.execute(db);
      await fence(db, table);
    }
  },
});

/** The link tables the jobs write: fenced like the others. */
export const LINK_FENCED_TABLES = ['prediction_market_texts', 'market_links'] as const;

/**
 * An event keeps the W3C `traceparent` of the span that wrote it (when tracing is on), so each of
 * its deliveries, retries and other instances' included, links to its cause. Ids only: no secret.
 */
/** Runs again without failing (a start stopped before it was recorded), on either engine. */
const webhookTraceParent = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    if (engine === 'postgres') return void (await sql`alter table webhook_events add column if not exists trace_parent text`.execute(db));
    const columns = await sql<{ name: string }>`select name from pragma_table_info('webhook_events')`.execute(db);
    if (!columns.rows.some((c) => c.name === 'trace_parent')) await db.schema.alterTable('webhook_events').addColumn('trace_parent', 'text').execute();
  },
});

/** Ordered by name; never edit a migration that has shipped, add a new one. */
function migrationsFor(engine: Engine): Record<string, Migration> {
  return {
    '0001_initial': initial(engine),
    '0002_prediction': prediction(engine),
    '0003_quota_days': quotaDays,
    '0004_prediction_sweeps': predictionSweeps,
    '0005_jobs_lease': jobsLease(engine),
    '0006_webhooks': webhooks(engine),
    '0007_history_volume': historyVolume,
    '0008_alerts_version': alertsVersion,
    '0009_trusted_documents': trustedDocuments,
    '0010_key_any_operation': keyAnyOperation,
    '0011_usage_days': usageDays,
    '0012_account_dashboard': accountDashboard(engine),
    '0013_api_keys_account': apiKeysAccount,
    '0014_revoked_keys_index': revokedKeysIndex,
    '0015_market_links': marketLinks(engine),
    '0016_webhook_trace_parent': webhookTraceParent(engine),
  };
}

export async function migrateToLatest(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(engine) };
  // Kysely looks for its own tables by name across every schema it can see; on PostgreSQL, pin it to
  // the current schema, or a database holding several deployments (one schema each) confuses it.
  const migrationTableSchema =
    engine === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({ db, provider, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (!error && !failed) return;
    // Kysely's introspection reads every schema's catalog; another schema of the same database
    // dropped meanwhile makes it fail with "does not exist". On PostgreSQL the pending migrations
    // run in one transaction and are recorded, so running again is safe.
    if (engine === 'postgres' && attempt < 3 && /does not exist/.test(String(error))) continue;
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
