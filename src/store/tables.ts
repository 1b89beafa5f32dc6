/** Row types of the store, shared by both engines. Timestamps are epoch milliseconds. */
import type { Generated } from 'kysely';

export interface AccountsTable {
  id: string;
  name: string;
  market_data_plan: string;
  prediction_plan: string;
  created_at: number;
  /** Bumped with every change to the account's price alerts (a cache key). */
  alerts_version: Generated<number>;
  /** Set while the account is disabled: its keys are refused, its sessions ended. */
  disabled_at: number | null;
  /** When its plans or status last changed: running servers re-read its keys (0: never). */
  changed_at: Generated<number>;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  /** First characters of the key, safe to show in listings (`mgw_AbCd…`). */
  display_prefix: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  key_hash: string;
  name: string;
  created_at: number;
  revoked_at: number | null;
  /** 1: exempt from trusted-document enforcement (may send any operation); 0 by default. */
  any_operation: Generated<number>;
  /** From then on the key is refused; null: it does not expire. */
  expires_at: number | null;
}

export interface MarketsTable {
  symbol: string;
  name: string;
  type: string;
  source: string;
  stale_after_ms: number;
  /** 0 or 1: SQLite has no boolean. */
  halted: number;
}

export interface QuotesTable {
  symbol: string;
  price: number;
  change_24h: number;
  volume_24h: number;
  observed_at: number;
}

export interface CandlesTable {
  symbol: string;
  interval: string;
  open_time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface PriceAlertsTable {
  id: string;
  account_id: string;
  symbol: string;
  kind: string;
  threshold: number | null;
  signal: string | null;
  status: string;
  created_at: number;
  expires_at: number | null;
  triggered_at: number | null;
  /** Monotonic insertion order: ties of created_at still sort newest first. */
  seq: Generated<number>;
}

export interface PredictionMarketsTable {
  id: string;
  source: string;
  question: string;
  url: string;
  topic: string | null;
  /** Latest observation; null until the first one arrives. */
  prob: number | null;
  volume_24h: number | null;
  updated_at: number | null;
  /** The platform's own 24-hour move at the latest observation, in points; null where it reports none. */
  source_move_24h: number | null;
}

/** Per live prediction source, when its last complete answer (every page) was taken. */
export interface PredictionSweepsTable {
  source: string;
  swept_at: number;
}

/** The last observation of each UTC hour, for movement over 24 hours. */
export interface PredictionHistoryTable {
  market_id: string;
  hour_start: number;
  prob: number;
  observed_at: number;
  /** The market's 24-hour volume at that observation; null for hours stored before it was kept. */
  volume_24h: Generated<number | null>;
}

/** The movement detector's state (D9): the probability, in percent, movements are measured from. */
export interface MovementBaselinesTable {
  market_id: string;
  pct: number;
  observed_at: number;
}

export interface MovementAlertsTable {
  id: string;
  market_id: string;
  question: string;
  old_pct: number;
  new_pct: number;
  delta_pts: number;
  detected_at: number;
  seq: Generated<number>;
}

export interface MorningBriefsTable {
  date: string;
  brief: string;
  writer: string;
  generated_at: number;
}

/** Requests admitted per account, product and UTC day (the day's index since the epoch). */
export interface QuotaDaysTable {
  account_id: string;
  product: string;
  day_index: number;
  count: number;
}

/** An Enterprise account's webhook receiver. The secret is kept to sign with; it is shown only when made. */
export interface WebhookEndpointsTable {
  seq: Generated<number>;
  id: string;
  account_id: string;
  url: string;
  /** Comma list of the subscribed event types. */
  events: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  created_at: number;
  disabled_at: number | null;
  disabled_reason: string | null;
  /** When its earliest pending delivery is due; never later than that (it may lag behind a retry pushed later). */
  next_due_at: number | null;
  /** Bumped whenever a delivery is queued, so that a recomputed `next_due_at` never hides it. */
  queue_version: Generated<number>;
}

/** The outbox: an event, written in the transaction that caused it, with the body every attempt sends. */
export interface WebhookEventsTable {
  id: string;
  account_id: string;
  type: string;
  body: string;
  created_at: number;
  /** The W3C `traceparent` of the span that wrote the event; null when tracing was off. */
  trace_parent: string | null;
}

/** One event for one endpoint; its id is the `webhook-id` header. */
export interface WebhookDeliveriesTable {
  seq: Generated<number>;
  id: string;
  event_id: string;
  endpoint_id: string;
  status: string;
  attempts: number;
  next_attempt_at: number;
  last_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
  last_response: string | null;
  created_at: number;
  finished_at: number | null;
}

/** A trusted document: an operation clients may send, known by the SHA-256 of its text. */
export interface TrustedDocumentsTable {
  /** SHA-256 of `body`, lowercase hex. */
  id: string;
  body: string;
  name: string | null;
  /** query, mutation or subscription, where the manifest said. */
  type: string | null;
  loaded_at: number;
}

/** One row (id 1): the manifest's generation, bumped by every load, and when the last load was. */
export interface TrustedDocumentsMetaTable {
  id: number;
  version: number;
  loaded_at: number | null;
}

export interface UsageDaysTable {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  account_id: string;
  key_id: string;
  /** The variant of the listener: `A` or `B`. */
  listener: string;
  route: string;
  requests: number;
  /** Epoch ms of the last request counted. */
  last_at: number;
}

/** A person who signs in to the account dashboard: one per account. */
export interface UsersTable {
  id: string;
  account_id: string;
  /** Lower case. */
  email: string;
  /** argon2id, PHC string. */
  password_hash: string;
  email_verified_at: number | null;
  /** Base32 TOTP secret, set during setup; two-factor is on once `totp_enabled_at` is set. */
  totp_secret: string | null;
  totp_enabled_at: number | null;
  created_at: number;
  password_changed_at: number;
}

export interface RecoveryCodesTable {
  user_id: string;
  /** SHA-256 of the code, hex. */
  code_hash: string;
  used_at: number | null;
}

export interface SessionsTable {
  /** SHA-256 of the session id in the cookie, hex: the id itself is never stored. */
  id_hash: string;
  user_id: string;
  /** `signed_in`, or `second_factor` while the authentication code is awaited. */
  stage: string;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
  /** The absolute timeout. */
  expires_at: number;
  ended_at: number | null;
  client_address: string;
  user_agent: string;
}

export interface OneTimeTokensTable {
  /** SHA-256 of the token in the link, hex. */
  token_hash: string;
  /** `invite`, `reset` or `verify`. */
  kind: string;
  email: string;
  /** An invitation's account (one made by `keys create`), else null. */
  account_id: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface AccountActivityTable {
  id: Generated<number>;
  account_id: string;
  at: number;
  /** `sign_in`, `sign_in_failed`, `key_created`, ... */
  kind: string;
  detail: string;
  client_address: string | null;
}

/** What a venue publishes about a prediction market: the judge's input (docs/links.md). */
export interface PredictionMarketTextsTable {
  market_id: string;
  venue: string;
  question: string;
  rules: string;
  close_time: number | null;
  expiry_time: number | null;
  yes_side: string | null;
  strike_type: string | null;
  strike_floor: number | null;
  strike_cap: number | null;
  resolution_source: string | null;
  /** Of the fields above: a text judged before is judged again only when it changes. */
  text_hash: string;
  /** The price claim read from the texts (JSON), and its asset for lookups; null when none. */
  claim_asset: string | null;
  claim: string | null;
  updated_at: number;
}

/** The judge's verdict on a pair (`a_id` < `b_id`); `different` is not kept. Lists are JSON. */
export interface MarketLinksTable {
  a_id: string;
  b_id: string;
  relation: string;
  implies: string | null;
  evidence: string;
  basis_risk: string;
  missing: string;
  decided_by: string;
  decided_at: number;
}

/** An operator's decision on a pair (`a_id` < `b_id`): it wins over the judge's. */
export interface MarketLinkDecisionsTable {
  a_id: string;
  b_id: string;
  relation: string;
  decided_at: number;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  markets: MarketsTable;
  quotes: QuotesTable;
  candles: CandlesTable;
  price_alerts: PriceAlertsTable;
  prediction_markets: PredictionMarketsTable;
  prediction_history: PredictionHistoryTable;
  prediction_sweeps: PredictionSweepsTable;
  prediction_market_texts: PredictionMarketTextsTable;
  market_links: MarketLinksTable;
  market_link_decisions: MarketLinkDecisionsTable;
  movement_baselines: MovementBaselinesTable;
  movement_alerts: MovementAlertsTable;
  morning_briefs: MorningBriefsTable;
  quota_days: QuotaDaysTable;
  usage_days: UsageDaysTable;
  users: UsersTable;
  recovery_codes: RecoveryCodesTable;
  sessions: SessionsTable;
  one_time_tokens: OneTimeTokensTable;
  account_activity: AccountActivityTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  trusted_documents: TrustedDocumentsTable;
  trusted_documents_meta: TrustedDocumentsMetaTable;
}
