// Public face of production/alerts: rules over production answers, evaluated on a schedule,
// notifying a signed webhook when they fire and resolve (issue 24 §4).
export { type AlertDecision, breaches, decideAlert } from "./decide.js";
export {
  type AlertEvaluation,
  type AlertEvaluatorOptions,
  evaluateAlertRule,
  evaluateAlerts,
  type RuleEvaluation,
  startAlertEvaluation,
} from "./evaluator.js";
export { ALERT_METRIC_INFO, ALERT_METRICS, type AlertMetric, ruleMetricWords } from "./metrics.js";
export {
  ALERT_RULE_LIMITS,
  AlertFilterSchema,
  type AlertRuleInput,
  AlertRuleInputSchema,
  type AlertRulePatch,
  AlertRulePatchSchema,
  judgeProblem,
} from "./rule-input.js";
export { AlertRuleError, type AlertRuleDeps, changeRule, createRule } from "./rules.js";
export {
  alertBody,
  type AlertNotice,
  alertText,
  DELIVERY_DEFAULTS,
  deliverAlert,
  type DeliveryOptions,
  SIGNATURE_HEADER,
  signAlert,
  TIMESTAMP_HEADER,
  type WebhookFetch,
} from "./webhook.js";
