// Alert rules and their firing episodes (issue 24 §4), and the measurement of a rule's metric
// over its window of production answers. Every read by a caller is scoped to its user; the
// evaluator alone reads every user's enabled rules.

import { randomBytes, randomUUID } from "node:crypto";
import { and, count, desc, eq, gte, isNull, lt, type SQL, sql } from "drizzle-orm";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import {
  type AlertDelivery,
  alert_events,
  alert_rules,
  answer_feedback,
  answer_records,
  judge_rollups,
  users,
} from "./schema.js";
import {
  isSealedSecret,
  openSecret,
  SECRET_KEY_ENV,
  type SecretKey,
  sealSecret,
} from "./secret-box.js";

type StoredRule = typeof alert_rules.$inferSelect;
export type AlertMetric = StoredRule["metric"];
export type AlertFilter = StoredRule["filter"];
export type AlertEventRow = typeof alert_events.$inferSelect;
export type { AlertDelivery };

/** A rule as its owner reads it: never the secret. `firing_since` is its open episode's start. */
export type AlertRuleRow = Omit<StoredRule, "secret"> & { firing_since: Date | null };

/** What a person sets on a rule. */
export type AlertRuleFields = Pick<
  StoredRule,
  | "name"
  | "metric"
  | "judge"
  | "comparison"
  | "threshold"
  | "window_minutes"
  | "min_count"
  | "filter"
  | "webhook_url"
  | "cooldown_minutes"
  | "enabled"
>;

export class AlertRuleNameTakenError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "name_taken";
  override readonly name = "AlertRuleNameTakenError";
  constructor(readonly ruleName: string) {
    super(`an alert rule named "${ruleName}" already exists`);
  }
}

/** A webhook secret cannot be stored: several users and no operator key (as for bots). */
export class AlertSecretKeyRequiredError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "invalid_request";
  override readonly name = "AlertSecretKeyRequiredError";
  constructor() {
    super(
      `this server has several users, so it stores webhook signing secrets only encrypted, and its operator has not set ${SECRET_KEY_ENV}`,
    );
  }
}

const secretContext = (workspaceId: string, ruleId: string) =>
  `alert_rules.secret:${workspaceId}:${ruleId}`;

const openEpisode = alert_events;
const publicColumns = {
  id: alert_rules.id,
  workspace_id: alert_rules.workspace_id,
  name: alert_rules.name,
  metric: alert_rules.metric,
  judge: alert_rules.judge,
  comparison: alert_rules.comparison,
  threshold: alert_rules.threshold,
  window_minutes: alert_rules.window_minutes,
  min_count: alert_rules.min_count,
  filter: alert_rules.filter,
  webhook_url: alert_rules.webhook_url,
  cooldown_minutes: alert_rules.cooldown_minutes,
  enabled: alert_rules.enabled,
  created_at: alert_rules.created_at,
  evaluated_at: alert_rules.evaluated_at,
  last_value: alert_rules.last_value,
  last_count: alert_rules.last_count,
  firing_since: openEpisode.fired_at,
};

function selectRules(db: Db, where: SQL | undefined) {
  return db
    .select(publicColumns)
    .from(alert_rules)
    .leftJoin(
      openEpisode,
      and(eq(openEpisode.rule_id, alert_rules.id), isNull(openEpisode.resolved_at)),
    )
    .where(where)
    .orderBy(alert_rules.name);
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } }).code;
  return code === "23505" || (error as { cause?: { code?: string } }).cause?.code === "23505";
}

/**
 * Creates a rule with a new random signing secret, returned this once. With the operator's key
 * the secret is sealed (AES-256-GCM, bound to the rule); without one it is kept as is only while
 * the database has a single user, as bots' secrets are (store/bots.ts).
 */
export async function createAlertRule(
  db: Db,
  workspaceId: string,
  fields: AlertRuleFields,
  secretKey: SecretKey | undefined,
): Promise<{ rule: AlertRuleRow; secret: string }> {
  const id = randomUUID();
  const secret = `rjw_${randomBytes(32).toString("base64url")}`;
  let stored = secret;
  if (secretKey) stored = sealSecret(secretKey, secret, secretContext(workspaceId, id));
  else {
    const [row] = await db.select({ users: count() }).from(users);
    if ((row?.users ?? 0) > 1) throw new AlertSecretKeyRequiredError();
  }
  try {
    await db
      .insert(alert_rules)
      .values({ id, workspace_id: workspaceId, ...fields, secret: stored });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AlertRuleNameTakenError(fields.name);
    throw error;
  }
  const rule = await getAlertRule(db, workspaceId, id);
  if (!rule) throw new Error("the alert rule just created was not found");
  return { rule, secret };
}

export async function listAlertRules(db: Db, workspaceId: string): Promise<AlertRuleRow[]> {
  return selectRules(db, eq(alert_rules.workspace_id, workspaceId));
}

/** Another user's rule, or a malformed id, is undefined (a 404). */
export async function getAlertRule(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<AlertRuleRow | undefined> {
  const [row] = await selectRules(
    db,
    and(eq(alert_rules.id, idParam(id)), eq(alert_rules.workspace_id, workspaceId)),
  );
  return row;
}

/** Changes what a person set; the secret, the state and the history stay. */
export async function updateAlertRule(
  db: Db,
  workspaceId: string,
  id: string,
  fields: Partial<AlertRuleFields>,
): Promise<AlertRuleRow | undefined> {
  if (Object.keys(fields).length > 0) {
    try {
      const updated = await db
        .update(alert_rules)
        .set(fields)
        .where(and(eq(alert_rules.id, idParam(id)), eq(alert_rules.workspace_id, workspaceId)))
        .returning({ id: alert_rules.id });
      if (updated.length === 0) return undefined;
    } catch (error) {
      if (isUniqueViolation(error) && fields.name) throw new AlertRuleNameTakenError(fields.name);
      throw error;
    }
  }
  return getAlertRule(db, workspaceId, id);
}

/** Deletes a rule and its history. */
export async function deleteAlertRule(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(alert_rules)
    .where(and(eq(alert_rules.id, idParam(id)), eq(alert_rules.workspace_id, workspaceId)))
    .returning({ id: alert_rules.id });
  return deleted.length > 0;
}

/** A rule's episodes, newest first. */
export async function listAlertEvents(
  db: Db,
  workspaceId: string,
  ruleId: string,
  limit: number,
): Promise<AlertEventRow[]> {
  return db
    .select()
    .from(alert_events)
    .where(
      and(eq(alert_events.rule_id, idParam(ruleId)), eq(alert_events.workspace_id, workspaceId)),
    )
    .orderBy(desc(alert_events.fired_at), desc(alert_events.id))
    .limit(limit);
}

/** Every user's enabled rules, for the evaluator. */
export async function listEnabledAlertRules(db: Db): Promise<AlertRuleRow[]> {
  return selectRules(db, eq(alert_rules.enabled, true));
}

/** The rule's signing secret as it was shown, for the evaluator's delivery only. */
export async function alertRuleSecret(
  db: Db,
  rule: Pick<AlertRuleRow, "id" | "workspace_id">,
  secretKey: SecretKey | undefined,
): Promise<string | undefined> {
  const [row] = await db
    .select({ secret: alert_rules.secret })
    .from(alert_rules)
    .where(and(eq(alert_rules.id, rule.id), eq(alert_rules.workspace_id, rule.workspace_id)));
  return (
    row &&
    openSecret(row.secret, secretKey, secretContext(rule.workspace_id, rule.id), {
      what: "the webhook's signing secret",
      redo: "make the alert rule again for a new secret",
    })
  );
}

/**
 * Seals the signing secrets stored as given before the operator set a key (run by `serve` at
 * start, as bots' secrets are). A row is rewritten only if it still holds the value read.
 */
export async function sealStoredAlertSecrets(db: Db, secretKey: SecretKey): Promise<number> {
  const rows = await db
    .select({
      id: alert_rules.id,
      workspace_id: alert_rules.workspace_id,
      secret: alert_rules.secret,
    })
    .from(alert_rules);
  let sealed = 0;
  for (const row of rows) {
    if (isSealedSecret(row.secret)) continue;
    const updated = await db
      .update(alert_rules)
      .set({ secret: sealSecret(secretKey, row.secret, secretContext(row.workspace_id, row.id)) })
      .where(and(eq(alert_rules.id, row.id), eq(alert_rules.secret, row.secret)))
      .returning({ id: alert_rules.id });
    sealed += updated.length;
  }
  return sealed;
}

/** A metric over a window: `value` is null when nothing was counted. */
export interface AlertMeasure {
  value: number | null;
  count: number;
}

/** What measuring reads of a rule; `judge` only for judge_mean. */
export type MeasuredRule = Pick<AlertRuleRow, "workspace_id" | "metric" | "filter"> & {
  judge?: string | null;
};

function answerFilter(filter: AlertFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.service !== undefined) conditions.push(eq(answer_records.service, filter.service));
  if (filter.collection !== undefined)
    conditions.push(eq(answer_records.collection, filter.collection));
  if (filter.model !== undefined) conditions.push(eq(answer_records.model, filter.model));
  return conditions;
}

/**
 * The statement measuring a rule's metric over [from, to), one row of `count` and `value`.
 * Answers' metrics read answer_records by its (workspace_id, received_at) index, one or two day
 * partitions; thumbs read the feedback given in the window by answer_feedback's (workspace_id,
 * created_at) index, joined to their answers only when the rule filters by service, collection
 * or model. A judge's mean reads the minute rollups of judge scores (judge_rollups' primary key:
 * user, grain 60, minutes), never the judgments. Returned unrun so a test can EXPLAIN it.
 */
export function alertMetricQuery(db: Db, rule: MeasuredRule, from: Date, to: Date) {
  const inWindow = [
    eq(answer_records.workspace_id, rule.workspace_id),
    gte(answer_records.received_at, from),
    lt(answer_records.received_at, to),
    ...answerFilter(rule.filter),
  ];
  switch (rule.metric) {
    case "judge_mean":
      return judgeMeanQuery(db, rule, from, to);
    case "gate_pass_rate":
      return db
        .select({
          count: sql<number>`count(*)::int`,
          value: sql<
            number | null
          >`(count(*) filter (where ${answer_records.gate_status} = 'pass'))::float8 / nullif(count(*), 0)`,
        })
        .from(answer_records)
        .where(and(...inWindow));
    case "latency_p95_ms":
      return db
        .select({
          count: sql<number>`count(${answer_records.latency_ms})::int`,
          value: sql<
            number | null
          >`percentile_cont(0.95) within group (order by ${answer_records.latency_ms})`,
        })
        .from(answer_records)
        .where(and(...inWindow, sql`${answer_records.latency_ms} is not null`));
    case "thumbs_down_share": {
      const given = [
        eq(answer_feedback.workspace_id, rule.workspace_id),
        gte(answer_feedback.created_at, from),
        lt(answer_feedback.created_at, to),
        sql`${answer_feedback.thumb} is not null`,
      ];
      const columns = {
        count: sql<number>`count(*)::int`,
        value: sql<
          number | null
        >`(count(*) filter (where ${answer_feedback.thumb} = 'down'))::float8 / nullif(count(*), 0)`,
      };
      const filters = answerFilter(rule.filter);
      if (filters.length === 0) {
        return db
          .select(columns)
          .from(answer_feedback)
          .where(and(...given));
      }
      return db
        .select(columns)
        .from(answer_feedback)
        .innerJoin(
          answer_records,
          and(
            eq(answer_records.workspace_id, answer_feedback.workspace_id),
            eq(answer_records.id, answer_feedback.answer_id),
            eq(answer_records.received_at, answer_feedback.answer_received_at),
          ),
        )
        .where(and(...given, ...filters));
    }
  }
}

const MINUTE_MS = 60_000;

/**
 * A judge's mean score (0-1) over the judged answers that arrived in [from, to), and how many.
 * Rollups are kept per minute of the answer's arrival, so the window is read in whole minutes:
 * every minute it touches (at most one minute more than the window). The row of all answers
 * (meta_key '') holds each answer once; the filter's service, collection and model are columns
 * of the key ('' standing for none, which a filter never names).
 */
function judgeMeanQuery(db: Db, rule: MeasuredRule, from: Date, to: Date) {
  const firstMinute = new Date(Math.floor(from.getTime() / MINUTE_MS) * MINUTE_MS);
  const { service, collection, model } = rule.filter;
  return db
    .select({
      count: sql<number>`coalesce(sum(${judge_rollups.count}), 0)::int`,
      value: sql<
        number | null
      >`sum(${judge_rollups.score_sum})::float8 / nullif(sum(${judge_rollups.count}), 0)`,
    })
    .from(judge_rollups)
    .where(
      and(
        eq(judge_rollups.workspace_id, rule.workspace_id),
        eq(judge_rollups.grain, 60),
        gte(judge_rollups.minute, firstMinute),
        lt(judge_rollups.minute, to),
        eq(judge_rollups.meta_key, ""),
        eq(judge_rollups.meta_value, ""),
        // A rule without a judge is refused when made; matching nothing keeps it harmless.
        eq(judge_rollups.judge, rule.judge ?? ""),
        ...(service !== undefined ? [eq(judge_rollups.service, service)] : []),
        ...(collection !== undefined ? [eq(judge_rollups.collection, collection)] : []),
        ...(model !== undefined ? [eq(judge_rollups.model, model)] : []),
      ),
    );
}

/** Measures a rule's metric over [from, to) (alertMetricQuery). */
export async function measureAlertMetric(
  db: Db,
  rule: MeasuredRule,
  from: Date,
  to: Date,
): Promise<AlertMeasure> {
  const [row] = (await alertMetricQuery(db, rule, from, to)) as {
    value: number | string | null;
    count: number | string;
  }[];
  const value = row?.value;
  return {
    count: Number(row?.count ?? 0),
    value: value === null || value === undefined ? null : Number(value),
  };
}

/** Notes what the evaluator measured, shown with the rule. */
export async function recordAlertMeasure(
  db: Db,
  ruleId: string,
  at: Date,
  measure: AlertMeasure,
): Promise<void> {
  await db
    .update(alert_rules)
    .set({ evaluated_at: at, last_value: measure.value, last_count: measure.count })
    .where(eq(alert_rules.id, ruleId));
}

/** When the rule last fired (its latest episode's start), for the cool-down. */
export async function lastAlertFiredAt(db: Db, ruleId: string): Promise<Date | undefined> {
  const [row] = await db
    .select({ fired_at: alert_events.fired_at })
    .from(alert_events)
    .where(eq(alert_events.rule_id, ruleId))
    .orderBy(desc(alert_events.fired_at))
    .limit(1);
  return row?.fired_at;
}

/**
 * Opens an episode. Undefined when one is open already (another evaluator opened it first):
 * only the one that opened it notifies.
 */
export async function openAlertEvent(
  db: Db,
  rule: Pick<AlertRuleRow, "id" | "workspace_id">,
  at: Date,
  measure: { value: number; count: number },
): Promise<AlertEventRow | undefined> {
  const [row] = await db
    .insert(alert_events)
    .values({ workspace_id: rule.workspace_id, rule_id: rule.id, fired_at: at, ...measure })
    .onConflictDoNothing({
      target: alert_events.rule_id,
      where: sql`${alert_events.resolved_at} is null`,
    })
    .returning();
  return row;
}

/** Closes the open episode; undefined when there was none (another evaluator closed it). */
export async function resolveAlertEvent(
  db: Db,
  ruleId: string,
  at: Date,
  measure: AlertMeasure,
): Promise<AlertEventRow | undefined> {
  const [row] = await db
    .update(alert_events)
    .set({ resolved_at: at, resolved_value: measure.value, resolved_count: measure.count })
    .where(and(eq(alert_events.rule_id, ruleId), isNull(alert_events.resolved_at)))
    .returning();
  return row;
}

/** Records how a notification's delivery went (or is going). */
export async function recordAlertDelivery(
  db: Db,
  eventId: string,
  kind: "fired" | "resolved",
  delivery: AlertDelivery,
): Promise<void> {
  await db
    .update(alert_events)
    .set(kind === "fired" ? { fired_delivery: delivery } : { resolved_delivery: delivery })
    .where(eq(alert_events.id, eventId));
}
