import { z } from "zod";
import {
  BotNetworkPolicyError,
  checkBotUrl,
  restrictedBotNetwork,
} from "../../evals/bots/index.js";
import {
  type AlertRuleDeps,
  AlertRuleInputSchema,
  AlertRulePatchSchema,
  changeRule,
  createRule,
} from "../../production/index.js";
import {
  type AlertDelivery,
  type AlertEventRow,
  type AlertRuleRow,
  deleteAlertRule,
  getAlertRule,
  listAlertEvents,
  listAlertRules,
} from "../../store/index.js";
import { type App, errorJson, type RouteDeps } from "../http.js";
import { defineRoute, mountRoute } from "../route.js";
import {
  AlertEventListSchema,
  AlertRuleListSchema,
  AlertRuleSchema,
  CreatedAlertRuleSchema,
  ErrorSchema,
} from "../schemas/index.js";
import { IdParams, pageLimit } from "./params.js";

// Alert rules (issue 24 §4): a metric over a window of production answers, a threshold, a
// webhook. The signing secret is in the creation's answer once and never again.

const BASE = "/api/v1/alert-rules";
const EVENTS_PAGE = { default: 50, max: 500 } as const;
const error = (description: string) => ({ description, schema: ErrorSchema });
const noRule = error("No such alert rule for this user (another user's id too)");

export const alertApi = {
  list: defineRoute({
    method: "get",
    path: BASE,
    tags: ["production"],
    summary: "Your alert rules, with their state (never their secrets)",
    responses: {
      200: { description: "The rules", schema: AlertRuleListSchema },
    },
  }),
  create: defineRoute({
    method: "post",
    path: BASE,
    tags: ["production"],
    summary: "Create an alert rule; its webhook signing secret is shown once",
    body: AlertRuleInputSchema,
    responses: {
      201: { description: "The rule and its secret", schema: CreatedAlertRuleSchema },
      400: error(
        "A field that fails validation, or a webhook URL the network policy refuses (named in issues[].path)",
      ),
      409: error("You already have a rule of that name"),
    },
  }),
  get: defineRoute({
    method: "get",
    path: `${BASE}/:id`,
    tags: ["production"],
    summary: "One alert rule",
    params: IdParams,
    resource: "alert rule",
    responses: { 200: { description: "The rule", schema: AlertRuleSchema }, 404: noRule },
  }),
  update: defineRoute({
    method: "patch",
    path: `${BASE}/:id`,
    tags: ["production"],
    summary: "Change an alert rule (any of its fields; the secret stays)",
    params: IdParams,
    resource: "alert rule",
    body: AlertRulePatchSchema,
    responses: {
      200: { description: "The rule", schema: AlertRuleSchema },
      400: error("A field that fails validation (named in issues[].path)"),
      404: noRule,
      409: error("You already have a rule of that name"),
    },
  }),
  delete: defineRoute({
    method: "delete",
    path: `${BASE}/:id`,
    tags: ["production"],
    summary: "Delete an alert rule and its history",
    params: IdParams,
    resource: "alert rule",
    responses: { 204: { description: "Deleted" }, 404: noRule },
  }),
  events: defineRoute({
    method: "get",
    path: `${BASE}/:id/events`,
    tags: ["production"],
    summary: "A rule's history: each time it fired and resolved, newest first",
    params: IdParams,
    resource: "alert rule",
    query: z.object({ limit: pageLimit(EVENTS_PAGE) }),
    responses: {
      200: { description: "The episodes", schema: AlertEventListSchema },
      404: noRule,
    },
  }),
};

const iso = (at: Date | null) => (at ? at.toISOString() : null);

function ruleJson(rule: AlertRuleRow) {
  return {
    id: rule.id,
    name: rule.name,
    metric: rule.metric,
    judge: rule.judge,
    comparison: rule.comparison,
    threshold: rule.threshold,
    window_minutes: rule.window_minutes,
    min_count: rule.min_count,
    filter: rule.filter,
    webhook_url: rule.webhook_url,
    cooldown_minutes: rule.cooldown_minutes,
    enabled: rule.enabled,
    created_at: rule.created_at.toISOString(),
    state: rule.firing_since ? ("firing" as const) : ("ok" as const),
    firing_since: iso(rule.firing_since),
    evaluated_at: iso(rule.evaluated_at),
    last_value: rule.last_value,
    last_count: rule.last_count,
  };
}

const deliveryJson = (delivery: AlertDelivery | null) => delivery ?? null;

function eventJson(event: AlertEventRow) {
  return {
    id: event.id,
    rule_id: event.rule_id,
    fired_at: event.fired_at.toISOString(),
    value: event.value,
    count: event.count,
    resolved_at: iso(event.resolved_at),
    resolved_value: event.resolved_value,
    resolved_count: event.resolved_count,
    fired_delivery: deliveryJson(event.fired_delivery),
    resolved_delivery: deliveryJson(event.resolved_delivery),
  };
}

export function alertRoutes(app: App, deps: RouteDeps) {
  const { db } = deps;
  const policy = restrictedBotNetwork(deps.config.bots);
  const ruleDeps: AlertRuleDeps = {
    secretKey: deps.secretKey,
    async checkWebhookUrl(url) {
      try {
        await checkBotUrl(url, policy);
        return undefined;
      } catch (refusal) {
        if (refusal instanceof BotNetworkPolicyError) return refusal.message;
        throw refusal;
      }
    },
  };
  const notFound = (c: Parameters<typeof errorJson>[0]) =>
    errorJson(c, 404, "not_found", "No such alert rule.");

  mountRoute(app, deps, alertApi.list, async (c) =>
    c.json({ items: (await listAlertRules(db, c.get("workspace").id)).map(ruleJson) }, 200),
  );
  mountRoute(app, deps, alertApi.create, async (c, { body }) => {
    const { rule, secret } = await createRule(db, c.get("workspace").id, body, ruleDeps);
    return c.json({ ...ruleJson(rule), secret }, 201);
  });
  mountRoute(app, deps, alertApi.get, async (c, { params }) => {
    const rule = await getAlertRule(db, c.get("workspace").id, params.id);
    return rule ? c.json(ruleJson(rule), 200) : notFound(c);
  });
  mountRoute(app, deps, alertApi.update, async (c, { params, body }) => {
    const rule = await changeRule(db, c.get("workspace").id, params.id, body, ruleDeps);
    return rule ? c.json(ruleJson(rule), 200) : notFound(c);
  });
  mountRoute(app, deps, alertApi.delete, async (c, { params }) => {
    if (!(await deleteAlertRule(db, c.get("workspace").id, params.id))) return notFound(c);
    return c.body(null, 204);
  });
  mountRoute(app, deps, alertApi.events, async (c, { params, query }) => {
    const workspaceId = c.get("workspace").id;
    if (!(await getAlertRule(db, workspaceId, params.id))) return notFound(c);
    const events = await listAlertEvents(
      db,
      workspaceId,
      params.id,
      query.limit ?? EVENTS_PAGE.default,
    );
    return c.json({ items: events.map(eventJson) }, 200);
  });
}
