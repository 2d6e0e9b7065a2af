// Creating and changing alert rules: the input checked as a whole (the threshold against its
// metric, the webhook URL against the operator's network policy), then stored.

import {
  type AlertRuleRow,
  createAlertRule,
  type Db,
  getAlertRule,
  type SecretKey,
  updateAlertRule,
} from "../../store/index.js";
import type { AlertRuleInput, AlertRulePatch } from "./rule-input.js";
import { judgeProblem, thresholdProblem } from "./rule-input.js";

/** A rule refused for one field; the API answers 400 naming it. */
export class AlertRuleError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "invalid_request";
  override readonly name = "AlertRuleError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

export interface AlertRuleDeps {
  secretKey?: SecretKey | undefined;
  /**
   * Why the operator's network policy refuses a webhook URL, or undefined when it allows it. The
   * policy is checked again at every connection a delivery makes.
   */
  checkWebhookUrl(url: URL): Promise<string | undefined>;
}

async function checkUrl(deps: AlertRuleDeps, url: string): Promise<void> {
  const refused = await deps.checkWebhookUrl(new URL(url));
  if (refused !== undefined) throw new AlertRuleError("webhook_url", refused);
}

/** Creates a rule; its signing secret is returned this once. */
export async function createRule(
  db: Db,
  workspaceId: string,
  input: AlertRuleInput,
  deps: AlertRuleDeps,
): Promise<{ rule: AlertRuleRow; secret: string }> {
  await checkUrl(deps, input.webhook_url);
  return createAlertRule(db, workspaceId, { ...input, judge: input.judge ?? null }, deps.secretKey);
}

/** Changes a rule; undefined when it is not the caller's. */
export async function changeRule(
  db: Db,
  workspaceId: string,
  id: string,
  patch: AlertRulePatch,
  deps: AlertRuleDeps,
): Promise<AlertRuleRow | undefined> {
  const current = await getAlertRule(db, workspaceId, id);
  if (!current) return undefined;
  const problem = thresholdProblem(
    patch.metric ?? current.metric,
    patch.threshold ?? current.threshold,
  );
  if (problem) throw new AlertRuleError("threshold", problem);
  // A rule moved off judge_mean forgets its judge; one moved onto it must name one.
  const metric = patch.metric ?? current.metric;
  const judge = metric === "judge_mean" ? (patch.judge ?? current.judge) : patch.judge;
  const judgeRefused = judgeProblem(metric, judge);
  if (judgeRefused) throw new AlertRuleError("judge", judgeRefused);
  if (patch.webhook_url !== undefined) await checkUrl(deps, patch.webhook_url);
  return updateAlertRule(db, workspaceId, id, { ...patch, judge: judge ?? null });
}
