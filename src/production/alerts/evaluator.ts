// Evaluates every enabled alert rule: measure the window, decide, open or close the episode,
// notify. `serve` runs a pass every `production.alert_interval_ms`; a pass starts only after the
// previous one ended, so a slow receiver delays the next pass instead of piling passes up.

import {
  type AlertDelivery,
  type AlertRuleRow,
  alertRuleSecret,
  type Db,
  lastAlertFiredAt,
  listEnabledAlertRules,
  measureAlertMetric,
  openAlertEvent,
  recordAlertDelivery,
  recordAlertMeasure,
  resolveAlertEvent,
  type SecretKey,
} from "../../store/index.js";
import { type AlertDecision, decideAlert } from "./decide.js";
import {
  alertBody,
  type AlertNotice,
  deliverAlert,
  type DeliveryOptions,
  type WebhookFetch,
} from "./webhook.js";

export interface AlertEvaluatorOptions {
  db: Db;
  /** The fetch webhooks go out by: one that applies the operator's network policy. */
  fetch: WebhookFetch;
  /** RAGJUDGE_SECRET_KEY, to open the rules' signing secrets. */
  secretKey?: SecretKey | undefined;
  /** The web app's address, for the link in each notice (e.g. http://127.0.0.1:8787). */
  publicUrl?: string | undefined;
  delivery?: DeliveryOptions;
  clock?: () => Date;
  onError?: (error: unknown) => void;
  /** Ends deliveries in progress (the server is stopping). */
  signal?: AbortSignal;
}

/** What one rule's evaluation did. */
export interface RuleEvaluation {
  rule_id: string;
  value: number | null;
  count: number;
  decision: AlertDecision;
  delivery?: AlertDelivery;
}

function noticeOf(
  rule: AlertRuleRow,
  state: AlertNotice["state"],
  event: { fired_at: Date; resolved_at: Date | null },
  measure: { value: number | null; count: number },
  publicUrl: string | undefined,
): AlertNotice {
  return {
    state,
    rule: {
      id: rule.id,
      name: rule.name,
      metric: rule.metric,
      judge: rule.judge,
      comparison: rule.comparison,
      threshold: rule.threshold,
      window_minutes: rule.window_minutes,
      min_count: rule.min_count,
      filter: rule.filter,
    },
    ...measure,
    fired_at: event.fired_at,
    resolved_at: event.resolved_at,
    link: publicUrl ? new URL(`/production/alerts/${rule.id}`, publicUrl).href : null,
  };
}

async function notify(
  options: AlertEvaluatorOptions,
  rule: AlertRuleRow,
  eventId: string,
  notice: AlertNotice,
): Promise<AlertDelivery> {
  const kind = notice.state === "firing" ? "fired" : "resolved";
  const clock = options.clock ?? (() => new Date());
  let delivery: AlertDelivery;
  try {
    const secret = await alertRuleSecret(options.db, rule, options.secretKey);
    if (secret === undefined) throw new Error("the rule was deleted");
    delivery = await deliverAlert({
      fetch: options.fetch,
      url: rule.webhook_url,
      secret,
      body: alertBody(notice),
      ...(options.delivery ? { options: options.delivery } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      clock,
    });
  } catch (error) {
    // A secret that does not open (another key): recorded in words, never the secret.
    delivery = {
      attempts: 0,
      outcome: "failed",
      status: null,
      detail: error instanceof Error ? error.message : "the notification could not be sent",
      at: clock().toISOString(),
    };
  }
  await recordAlertDelivery(options.db, eventId, kind, delivery);
  return delivery;
}

/** Evaluates one rule at `now`. */
export async function evaluateAlertRule(
  options: AlertEvaluatorOptions,
  rule: AlertRuleRow,
  now: Date,
): Promise<RuleEvaluation> {
  const { db } = options;
  const from = new Date(now.getTime() - rule.window_minutes * 60_000);
  const measure = await measureAlertMetric(db, rule, from, now);
  await recordAlertMeasure(db, rule.id, now, measure);
  const firing = rule.firing_since !== null;
  const decision = decideAlert({
    rule,
    measure,
    firing,
    lastFiredAt: firing ? (rule.firing_since ?? undefined) : await lastAlertFiredAt(db, rule.id),
    now,
  });
  const result: RuleEvaluation = { rule_id: rule.id, ...measure, decision };
  if (decision.kind === "fire" && measure.value !== null) {
    const event = await openAlertEvent(db, rule, now, {
      value: measure.value,
      count: measure.count,
    });
    // Another evaluator opened it first: that one notifies.
    if (!event) return result;
    result.delivery = await notify(
      options,
      rule,
      event.id,
      noticeOf(rule, "firing", event, measure, options.publicUrl),
    );
  } else if (decision.kind === "resolve") {
    const event = await resolveAlertEvent(db, rule.id, now, measure);
    if (!event) return result;
    result.delivery = await notify(
      options,
      rule,
      event.id,
      noticeOf(rule, "resolved", event, measure, options.publicUrl),
    );
  }
  return result;
}

/** Rules evaluated at once: a receiver retrying holds one slot, not the whole pass. */
const RULES_AT_ONCE = 8;

/**
 * One pass over every enabled rule, all measured at one `now`, a few at a time; a rule that fails
 * is reported and the others go on.
 */
export async function evaluateAlerts(options: AlertEvaluatorOptions): Promise<RuleEvaluation[]> {
  const now = (options.clock ?? (() => new Date()))();
  const rules = await listEnabledAlertRules(options.db);
  const results: RuleEvaluation[] = [];
  let next = 0;
  const lane = async () => {
    while (next < rules.length) {
      const rule = rules[next++] as AlertRuleRow;
      try {
        results.push(await evaluateAlertRule(options, rule, now));
      } catch (error) {
        options.onError?.(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(RULES_AT_ONCE, rules.length) }, lane));
  return results;
}

export interface AlertEvaluation {
  /** Ends the schedule, cutting short deliveries in flight; resolves once the pass has ended. */
  stop(): Promise<void>;
}

/** Runs `evaluateAlerts` every `intervalMs`, the next pass starting when the last one ended. */
export function startAlertEvaluation(
  options: AlertEvaluatorOptions & { intervalMs: number },
): AlertEvaluation {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const stopping = new AbortController();
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = evaluateAlerts({ ...options, signal: stopping.signal })
        .catch((error: unknown) => options.onError?.(error))
        .finally(schedule);
    }, options.intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      stopping.abort();
      await running;
    },
  };
}
