// The webhook an alert sends: a JSON body whose `text` Slack-compatible receivers show, signed
// with HMAC-SHA256 over "<timestamp>.<body>" under the rule's secret, retried with exponential
// backoff. Redirects are not followed: a 3xx is a failed delivery. The fetch is the caller's, so
// the operator's network policy is checked at every connection (evals/bots policy fetch).

import { createHmac } from "node:crypto";
import type { AlertDelivery, AlertFilter, AlertMetric } from "../../store/index.js";
import { ALERT_METRIC_INFO, ruleMetricWords } from "./metrics.js";

export const SIGNATURE_HEADER = "x-ragjudge-signature";
export const TIMESTAMP_HEADER = "x-ragjudge-timestamp";

/** The subset of fetch delivery uses. */
export type WebhookFetch = (url: string, init: RequestInit) => Promise<Response>;

export interface AlertNotice {
  state: "firing" | "resolved";
  rule: {
    id: string;
    name: string;
    metric: AlertMetric;
    /** The judge a judge_mean rule watches; null for the other metrics. */
    judge: string | null;
    comparison: "below" | "above";
    threshold: number;
    window_minutes: number;
    min_count: number;
    filter: AlertFilter;
  };
  /** The value measured now (null when nothing was counted) and what it was measured over. */
  value: number | null;
  count: number;
  fired_at: Date;
  resolved_at: Date | null;
  /** The rule's page in the web app, when the server knows its address. */
  link: string | null;
}

function windowWords(minutes: number): string {
  if (minutes % 60 === 0) return minutes === 60 ? "1 hour" : `${minutes / 60} hours`;
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

function filterWords(filter: AlertFilter): string {
  const parts = [
    filter.service !== undefined ? `service ${filter.service}` : "",
    filter.collection !== undefined ? `collection ${filter.collection}` : "",
    filter.model !== undefined ? `model ${filter.model}` : "",
  ].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(", ")})` : "";
}

/** The notice in plain words, as a chat message shows it. */
export function alertText(notice: AlertNotice): string {
  const { rule } = notice;
  const info = ALERT_METRIC_INFO[rule.metric];
  const words = ruleMetricWords(rule);
  const value = notice.value === null ? "not measured" : info.format(notice.value);
  const over = `over the last ${windowWords(rule.window_minutes)}${filterWords(rule.filter)}, ${notice.count} ${info.counted}`;
  const head =
    notice.state === "firing"
      ? `Alert "${rule.name}" is firing: the ${words} is ${value}, ${rule.comparison} the threshold of ${info.format(rule.threshold)}, ${over}.`
      : `Alert "${rule.name}" is resolved: the ${words} is ${value} (threshold: ${rule.comparison} ${info.format(rule.threshold)}), ${over}.`;
  return notice.link ? `${head} ${notice.link}` : head;
}

/** The webhook's JSON body. */
export function alertBody(notice: AlertNotice): string {
  return JSON.stringify({
    text: alertText(notice),
    state: notice.state,
    rule: notice.rule,
    value: notice.value,
    count: notice.count,
    fired_at: notice.fired_at.toISOString(),
    resolved_at: notice.resolved_at?.toISOString() ?? null,
    link: notice.link,
  });
}

/** `v1=` and the hex HMAC-SHA256 of "<timestamp>.<body>" under the secret. */
export function signAlert(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

export interface DeliveryOptions {
  /** Tries in all (default 5). */
  maxAttempts?: number;
  /** The wait before the second try; doubled each time (default 1,000 ms). */
  baseDelayMs?: number;
  /** One try's limit (default 10,000 ms). */
  timeoutMs?: number;
}

export const DELIVERY_DEFAULTS = { maxAttempts: 5, baseDelayMs: 1_000, timeoutMs: 10_000 };

/** The policy's refusal travels as the fetch's cause, with its code. */
function refusedByPolicy(error: unknown): string | undefined {
  for (let e = error; e instanceof Error; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === "EBOTPOLICY") return e.message;
  }
  return undefined;
}

function failureWords(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  if (error instanceof Error && error.name === "TimeoutError")
    return "the receiver did not answer in time";
  if (cause?.code) return `could not connect (${cause.code})`;
  return "could not connect";
}

/**
 * POSTs the body, signed afresh at each try (so a receiver may refuse old timestamps), until a
 * 2xx or the tries run out. Retried: network errors, 408, 429 and 5xx; not retried: a refusal by
 * the network policy, a redirect, any other 4xx.
 */
export async function deliverAlert(input: {
  fetch: WebhookFetch;
  url: string;
  secret: string;
  body: string;
  options?: DeliveryOptions;
  clock?: () => Date;
  /** Waits between tries; setTimeout by default (ended early by `signal`). */
  sleep?: (ms: number) => Promise<void>;
  /** Stops the delivery (the server is stopping): no more tries, the one in flight aborted. */
  signal?: AbortSignal;
}): Promise<AlertDelivery> {
  const { maxAttempts, baseDelayMs, timeoutMs } = { ...DELIVERY_DEFAULTS, ...input.options };
  const clock = input.clock ?? (() => new Date());
  const { signal } = input;
  const sleep =
    input.sleep ??
    ((ms: number) =>
      new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        const timer = setTimeout(resolve, ms);
        signal?.addEventListener(
          "abort",
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      }));
  let last: AlertDelivery = {
    attempts: 0,
    outcome: "failed",
    status: null,
    detail: null,
    at: clock().toISOString(),
  };
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    if (attempt > 1) await sleep(baseDelayMs * 2 ** (attempt - 2));
    if (signal?.aborted) {
      return { ...last, detail: "ragjudge stopped before the notification was delivered" };
    }
    const timestamp = Math.floor(clock().getTime() / 1000);
    let retry = true;
    try {
      const response = await input.fetch(input.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "ragjudge-alerts",
          [TIMESTAMP_HEADER]: String(timestamp),
          [SIGNATURE_HEADER]: signAlert(input.secret, timestamp, input.body),
        },
        body: input.body,
        redirect: "manual",
        signal: signal
          ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
          : AbortSignal.timeout(timeoutMs),
      });
      await response.arrayBuffer().catch(() => undefined);
      const at = clock().toISOString();
      if (response.status >= 200 && response.status < 300) {
        return {
          attempts: attempt,
          outcome: "delivered",
          status: response.status,
          detail: null,
          at,
        };
      }
      const redirect = response.status >= 300 && response.status < 400;
      retry = response.status === 408 || response.status === 429 || response.status >= 500;
      last = {
        attempts: attempt,
        outcome: "failed",
        status: response.status,
        detail: redirect
          ? `the receiver answered ${response.status}, a redirect, which is not followed`
          : `the receiver answered ${response.status}`,
        at,
      };
    } catch (error) {
      const refusal = refusedByPolicy(error);
      const at = clock().toISOString();
      if (refusal) {
        return { attempts: attempt, outcome: "refused", status: null, detail: refusal, at };
      }
      last = {
        attempts: attempt,
        outcome: "failed",
        status: null,
        detail: signal?.aborted
          ? "ragjudge stopped before the receiver answered"
          : failureWords(error),
        at,
      };
      if (signal?.aborted) break;
    }
    if (!retry) break;
  }
  return last;
}
