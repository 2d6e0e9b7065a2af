// Alerts (issue 24 §4) on both stores: rules made through the API, evaluated over answers
// ingested with their received times, notifying a real webhook receiver on 127.0.0.1 that the
// bot network policy allows: one notification per episode, resolved, the cool-down, the
// signature, a retry after a 500, the minimum count, and a refused address.

import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { createPolicyFetch, restrictedBotNetwork } from "../src/evals/bots/index.js";
import { type Jobs, startJobs } from "../src/jobs/index.js";
import { DEFAULT_JUDGES_CONFIG } from "../src/judges/index.js";
import {
  type AlertEvaluatorOptions,
  evaluateAlertRule,
  evaluateAlerts,
  ingestAnswers,
  type MonitorWorker,
  type RuleEvaluation,
  sendMonitorJobs,
  startMonitorWorker,
} from "../src/production/index.js";
import { createApp } from "../src/server/index.js";
import {
  alertMetricQuery,
  alertRuleSecret,
  createApiToken,
  findOrCreateUser,
  insertAnswerFeedback,
  listEnabledAlertRules,
  queryRows,
  sealStoredAlertSecrets,
  SecretKey,
} from "../src/store/index.js";
import { sql } from "drizzle-orm";
import { verifyRagjudgeAlert } from "../examples/alerts/verify-signature.mjs";
import { snippetAndExample } from "./support/docs-snippet.js";
import { describeEachStore } from "./support/stores.js";

const HIT = "The Lanting bridge was built in 1870 by the river guild.";
const LOOPBACK = { allow_hosts: [], allow_networks: ["127.0.0.1/32"], allow_public: true };
const SECRET_KEY = SecretKey.fromText("a".repeat(64));

let counter = 0;
function answer(good: boolean, extra: Record<string, unknown> = {}) {
  const id = `m${++counter}`;
  const year = good ? "1870" : "1875";
  return {
    conversation_id: "conv-alerts",
    message_id: id,
    retrieval_record: { id: `r-${id}`, query: "When was the bridge built?" },
    retrieval_hits: [{ node_id: "n1", content: HIT }],
    generation_record: { id: `g-${id}`, model: "gpt-4o-mini" },
    generation_output: {
      answer: `The Lanting bridge was built in ${year} by the river guild [n1].`,
      citations: [{ node_id: "n1" }],
    },
    ...extra,
  } as never;
}

interface Received {
  headers: IncomingMessage["headers"];
  body: string;
}

/** A webhook receiver: records every request, answers with the queued statuses, then 200. */
function startReceiver(): Promise<{
  url: string;
  received: Received[];
  statuses: number[];
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const statuses: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.statusCode = statuses.shift() ?? 200;
      response.end("ok");
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/hook`,
        received,
        statuses,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

const T0 = new Date(Date.UTC(2026, 10, 27, 9, 0, 0));
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

describeEachStore("alerts", (use) => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let app: ReturnType<typeof createApp>;
  let token = "";
  let workspaceId = "";

  beforeAll(async () => {
    receiver = await startReceiver();
    app = createApp({ db: use().db, config: { bots: LOOPBACK }, secretKey: SECRET_KEY });
  });
  afterAll(async () => {
    await receiver.close();
  });
  let jobs: Jobs | undefined;
  let worker: MonitorWorker | undefined;
  afterEach(async () => {
    await worker?.stop();
    await jobs?.stop();
    worker = undefined;
    jobs = undefined;
  });
  beforeEach(async () => {
    receiver.received.length = 0;
    receiver.statuses.length = 0;
    workspaceId = (await findOrCreateUser(use().db, "alerts-alice")).id;
    token = await createApiToken(use().db, workspaceId);
  });

  const call = async (method: string, path: string, json?: unknown, as = token) => {
    const response = await app.request(path, {
      method,
      headers: { authorization: `Bearer ${as}`, "content-type": "application/json" },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    const text = await response.text();
    return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
  };

  const createRule = async (fields: Record<string, unknown> = {}) => {
    const created = await call("POST", "/api/v1/alert-rules", {
      name: "pass rate",
      metric: "gate_pass_rate",
      comparison: "below",
      threshold: 0.9,
      window_minutes: 60,
      min_count: 5,
      cooldown_minutes: 0,
      webhook_url: receiver.url,
      ...fields,
    });
    expect(created.status, created.text).toBe(201);
    return created.body as { id: string; secret: string };
  };

  const ingest = async (
    count: number,
    good: boolean,
    now: Date,
    extra = {},
    send?: (ids: string[]) => Promise<void>,
  ) => {
    const stored = await ingestAnswers(
      Array.from({ length: count }, () => answer(good, extra)),
      {
        db: use().db,
        workspaceId,
        source: "api",
        now,
        ...(send ? { monitors: { db: use().db, send } } : {}),
      },
    );
    for (const row of stored) expect(row.gate.status).toBe(good ? "pass" : "fail");
    return stored;
  };

  const evaluator = (clock: () => Date, overrides: Partial<AlertEvaluatorOptions> = {}) =>
    ({
      db: use().db,
      fetch: createPolicyFetch(restrictedBotNetwork(LOOPBACK)),
      secretKey: SECRET_KEY,
      publicUrl: "http://127.0.0.1:8787",
      delivery: { baseDelayMs: 5, maxAttempts: 3 },
      clock,
      ...overrides,
    }) satisfies AlertEvaluatorOptions;

  const evaluateAt = async (when: Date, overrides: Partial<AlertEvaluatorOptions> = {}) => {
    const [result] = await evaluateAlerts(evaluator(() => when, overrides));
    return result as RuleEvaluation;
  };

  const payloads = () =>
    receiver.received.map((r) => JSON.parse(r.body) as { state: string; text: string });

  it("fires once per episode, stays quiet while firing, then resolves; the history shows both", async () => {
    const rule = await createRule();
    await ingest(6, false, at(0));
    expect((await evaluateAt(at(1))).decision).toEqual({ kind: "fire" });
    expect((await evaluateAt(at(2))).decision).toEqual({ kind: "hold", reason: "firing" });
    expect(payloads().map((p) => p.state)).toEqual(["firing"]);
    const firing = payloads()[0]?.text ?? "";
    expect(firing).toContain('Alert "pass rate" is firing: the gate pass rate is 0%');
    expect(firing).toContain("below the threshold of 90%, over the last 1 hour, 6 answers");
    expect(firing).toContain(`http://127.0.0.1:8787/production/alerts/${rule.id}`);
    expect((await call("GET", `/api/v1/alert-rules/${rule.id}`)).body).toMatchObject({
      state: "firing",
      last_count: 6,
      last_value: 0,
    });

    // 60 passing answers lift the rate to 60/66: above 0.9.
    await ingest(60, true, at(3));
    expect((await evaluateAt(at(4))).decision).toEqual({ kind: "resolve" });
    expect(payloads().map((p) => p.state)).toEqual(["firing", "resolved"]);
    expect(payloads()[1]?.text).toContain('Alert "pass rate" is resolved');

    const history = await call("GET", `/api/v1/alert-rules/${rule.id}/events`);
    expect(history.body.items).toHaveLength(1);
    expect(history.body.items[0]).toMatchObject({
      fired_at: at(1).toISOString(),
      value: 0,
      count: 6,
      resolved_at: at(4).toISOString(),
      resolved_count: 66,
      fired_delivery: { attempts: 1, outcome: "delivered", status: 200 },
      resolved_delivery: { attempts: 1, outcome: "delivered", status: 200 },
    });
    expect(history.body.items[0].resolved_value).toBeCloseTo(60 / 66);
  });

  it("notifies an episode once when two evaluators (two serve processes) measure it at once", async () => {
    const rule = await createRule();
    await ingest(6, false, at(0));
    // Both read the rule before either opened the episode, so both decide to fire.
    const [read] = await listEnabledAlertRules(use().db);
    if (!read) throw new Error("no rule");
    const passes = await Promise.all([
      evaluateAlertRule(
        evaluator(() => at(1)),
        read,
        at(1),
      ),
      evaluateAlertRule(
        evaluator(() => at(1)),
        read,
        at(1),
      ),
    ]);
    expect(passes.map((r) => r.decision.kind)).toEqual(["fire", "fire"]);
    expect(passes.filter((r) => r.delivery !== undefined)).toHaveLength(1);
    expect(payloads().map((p) => p.state)).toEqual(["firing"]);
    const history = await call("GET", `/api/v1/alert-rules/${rule.id}/events`);
    expect(history.body.items).toHaveLength(1);
  });

  it("respects the cool-down: a second breach inside it does not fire, after it does", async () => {
    const rule = await createRule({ cooldown_minutes: 30 });
    await ingest(6, false, at(0));
    expect((await evaluateAt(at(1))).decision.kind).toBe("fire");
    await ingest(60, true, at(2));
    expect((await evaluateAt(at(3))).decision.kind).toBe("resolve");
    await ingest(60, false, at(4));
    expect((await evaluateAt(at(5))).decision).toEqual({ kind: "hold", reason: "cooldown" });
    expect(payloads().map((p) => p.state)).toEqual(["firing", "resolved"]);
    // 30 minutes after the first firing, the same breach fires a second episode.
    expect((await evaluateAt(at(31))).decision.kind).toBe("fire");
    expect(payloads().map((p) => p.state)).toEqual(["firing", "resolved", "firing"]);
    const history = await call("GET", `/api/v1/alert-rules/${rule.id}/events`);
    expect(history.body.items.map((e: { fired_at: string }) => e.fired_at)).toEqual([
      at(31).toISOString(),
      at(1).toISOString(),
    ]);
  });

  it("signs each delivery with HMAC-SHA256 over timestamp.body under the secret shown once, stored encrypted", async () => {
    const rule = await createRule();
    expect(rule.secret).toMatch(/^rjw_[\w-]{43}$/);
    await ingest(6, false, at(0));
    await evaluateAt(at(1));
    const [delivery] = receiver.received;
    if (!delivery) throw new Error("nothing delivered");
    const timestamp = String(delivery.headers["x-ragjudge-timestamp"]);
    const signature = String(delivery.headers["x-ragjudge-signature"]);
    const expected = `v1=${createHmac("sha256", rule.secret).update(`${timestamp}.${delivery.body}`).digest("hex")}`;
    expect(timingSafeEqual(Buffer.from(signature), Buffer.from(expected))).toBe(true);
    // The receiver's check in docs/production.md, run as documented.
    const nowMs = at(1).getTime();
    expect(verifyRagjudgeAlert(rule.secret, delivery.headers, delivery.body, nowMs)).toBe(true);
    expect(verifyRagjudgeAlert(rule.secret, delivery.headers, `${delivery.body} `, nowMs)).toBe(
      false,
    );
    expect(verifyRagjudgeAlert("rjw_other", delivery.headers, delivery.body, nowMs)).toBe(false);
    expect(verifyRagjudgeAlert(rule.secret, delivery.headers, delivery.body, nowMs + 600_000)).toBe(
      false,
    );
    // Another secret does not verify it.
    const forged = `v1=${createHmac("sha256", "rjw_other").update(`${timestamp}.${delivery.body}`).digest("hex")}`;
    expect(forged).not.toBe(signature);

    // The secret is in no answer after the first, and sealed at rest.
    for (const path of [
      "/api/v1/alert-rules",
      `/api/v1/alert-rules/${rule.id}`,
      `/api/v1/alert-rules/${rule.id}/events`,
    ]) {
      expect((await call("GET", path)).text).not.toContain(rule.secret);
    }
    const [row] = await queryRows<{ secret: string }>(
      use().db,
      sql`select secret from alert_rules where id = ${rule.id}`,
    );
    expect(row?.secret).toMatch(/^rjsec1\./);
    expect(row?.secret).not.toContain(rule.secret.slice(4));
  });

  it("keeps a secret made before the operator set a key as given, seals it once a key is set, and still signs with it", async () => {
    const keyless = createApp({ db: use().db, config: { bots: LOOPBACK } });
    const response = await keyless.request("/api/v1/alert-rules", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: "before the key",
        metric: "gate_pass_rate",
        comparison: "below",
        threshold: 0.9,
        min_count: 5,
        webhook_url: receiver.url,
      }),
    });
    expect(response.status).toBe(201);
    const { id, secret } = (await response.json()) as { id: string; secret: string };
    const stored = async () =>
      (
        await queryRows<{ secret: string }>(
          use().db,
          sql`select secret from alert_rules where id = ${id}`,
        )
      )[0]?.secret;
    expect(await stored()).toBe(secret);
    expect(await sealStoredAlertSecrets(use().db, SECRET_KEY)).toBe(1);
    expect(await sealStoredAlertSecrets(use().db, SECRET_KEY)).toBe(0);
    expect(await stored()).toMatch(/^rjsec1\./);

    await ingest(6, false, at(0));
    expect((await evaluateAt(at(1))).delivery).toMatchObject({ outcome: "delivered" });
    const [delivery] = receiver.received;
    expect(
      verifyRagjudgeAlert(secret, delivery?.headers ?? {}, delivery?.body ?? "", at(1).getTime()),
    ).toBe(true);
    // A process without the key cannot open it, and says so in words.
    await expect(
      alertRuleSecret(use().db, { id, workspace_id: workspaceId }, undefined),
    ).rejects.toThrow(
      "the webhook's signing secret is stored encrypted and this process has no RAGJUDGE_SECRET_KEY",
    );
  });

  it("retries a receiver's 500 with backoff and records the attempts once delivered", async () => {
    const rule = await createRule();
    receiver.statuses.push(500);
    await ingest(6, false, at(0));
    const result = await evaluateAt(at(1));
    expect(result.delivery).toMatchObject({ attempts: 2, outcome: "delivered", status: 200 });
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0]?.body).toBe(receiver.received[1]?.body);
    const history = await call("GET", `/api/v1/alert-rules/${rule.id}/events`);
    expect(history.body.items[0].fired_delivery).toMatchObject({
      attempts: 2,
      outcome: "delivered",
    });

    // A receiver that keeps failing: every try made, the last status kept, the episode still open.
    receiver.statuses.push(503, 503, 503);
    await ingest(100, true, at(2));
    const resolved = await evaluateAt(at(3));
    expect(resolved.delivery).toMatchObject({
      attempts: 3,
      outcome: "failed",
      status: 503,
      detail: "the receiver answered 503",
    });
  });

  it("does not fire on fewer answers than the minimum count", async () => {
    await createRule({ min_count: 5 });
    await ingest(4, false, at(0));
    expect((await evaluateAt(at(1))).decision).toEqual({ kind: "hold", reason: "too_few" });
    expect(receiver.received).toHaveLength(0);
    await ingest(1, false, at(1));
    expect((await evaluateAt(at(2))).decision).toEqual({ kind: "fire" });
    expect(receiver.received).toHaveLength(1);
  });

  it("measures thumbs down over the feedback given in the window and latency p95, with a filter", async () => {
    const stored = await ingest(100, true, new Date(), { service: "shop" });
    await ingest(10, true, new Date(), { service: "other", latency_ms: 99_999 });
    const { db } = use();
    // Latencies 1..100 ms on the shop's answers.
    await db.execute(
      sql`update answer_records set latency_ms = substring(message_id from 2)::int % 100 + 1 where service = 'shop'`,
    );
    for (const [i, thumb] of (["down", "down", "down", "up"] as const).entries()) {
      const row = stored[i];
      if (!row) throw new Error("no answer");
      const [record] = await queryRows<{ received_at: Date }>(
        db,
        sql`select received_at from answer_records where id = ${row.id}`,
      );
      await insertAnswerFeedback(db, {
        workspace_id: workspaceId,
        answer_id: row.id,
        answer_received_at: new Date(record?.received_at ?? Date.now()),
        thumb,
        score: null,
        comment: null,
      });
    }
    await createRule({
      name: "thumbs",
      metric: "thumbs_down_share",
      comparison: "above",
      threshold: 0.5,
      min_count: 4,
      filter: { service: "shop" },
    });
    await createRule({
      name: "latency",
      metric: "latency_p95_ms",
      comparison: "above",
      threshold: 90,
      min_count: 50,
      filter: { service: "shop" },
    });
    const results = await evaluateAlerts(evaluator(() => new Date(Date.now() + 1000)));
    const rules = (await call("GET", "/api/v1/alert-rules")).body.items as {
      id: string;
      name: string;
      last_value: number;
      last_count: number;
      state: string;
    }[];
    const byName = new Map(rules.map((r) => [r.name, r]));
    expect(byName.get("thumbs")).toMatchObject({
      last_value: 0.75,
      last_count: 4,
      state: "firing",
    });
    expect(byName.get("latency")?.last_count).toBe(100);
    expect(byName.get("latency")?.last_value).toBeCloseTo(95.05);
    expect(results.every((r) => r.decision.kind === "fire")).toBe(true);
    expect(
      payloads()
        .map((p) => p.text)
        .sort()[1],
    ).toContain(
      "the share of thumbs down is 75%, above the threshold of 50%, over the last 1 hour (service shop), 4 thumbs",
    );
  });

  it("fires on the offline judge's mean as a monitor judges answers, then resolves, the text naming the judge", async () => {
    const { db } = use();
    jobs = await startJobs(use(), { expireInSeconds: 5, heartbeatSeconds: 1 });
    const running = jobs;
    worker = startMonitorWorker({
      jobs: running,
      clientsFor: () => ({}),
      judges: DEFAULT_JUDGES_CONFIG,
      onError: (error) => {
        throw error;
      },
    });
    const monitor = await call("POST", "/api/v1/monitors", {
      name: "offline on the shop",
      sample_rate: 1,
      judges: ["offline"],
      max_calls_per_minute: 0,
      max_calls_per_day: 0,
    });
    expect(monitor.status, monitor.text).toBe(201);
    const send = (ids: string[]) => sendMonitorJobs(running, ids);
    const doneCount = async () =>
      (
        await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from monitor_judgments where status = 'done'`,
        )
      )[0]?.n;
    const rule = await createRule({
      name: "offline mean",
      metric: "judge_mean",
      judge: "offline",
      comparison: "below",
      threshold: 0.7,
      min_count: 4,
      filter: { service: "shop" },
    });

    // Unsupported answers (the year is not the hit's): the offline judge scores them low.
    await ingest(4, false, at(0), { service: "shop" }, send);
    // Another service's answers, judged too, are outside the rule's filter.
    await ingest(3, true, at(0), { service: "other" }, send);
    await expect.poll(doneCount, { timeout: 30_000 }).toBe(7);
    const fired = await evaluateAt(at(1));
    expect(fired.decision).toEqual({ kind: "fire" });
    expect(fired.count).toBe(4);
    expect(fired.value).toBeLessThan(0.7);
    const [firing] = payloads();
    expect(firing?.text).toContain(
      'Alert "offline mean" is firing: the mean score of the offline judge is',
    );
    expect(firing?.text).toContain("over the last 1 hour (service shop), 4 judged answers");
    expect(JSON.parse(receiver.received[0]?.body ?? "{}").rule).toMatchObject({
      metric: "judge_mean",
      judge: "offline",
    });

    // Supported answers lift the mean over the threshold: the episode resolves.
    await ingest(40, true, at(2), { service: "shop" }, send);
    await expect.poll(doneCount, { timeout: 30_000 }).toBe(47);
    const resolved = await evaluateAt(at(3));
    expect(resolved.decision).toEqual({ kind: "resolve" });
    expect(resolved.count).toBe(44);
    expect(resolved.value).toBeGreaterThan(0.7);
    expect(payloads().map((p) => p.state)).toEqual(["firing", "resolved"]);
    expect((await call("GET", `/api/v1/alert-rules/${rule.id}`)).body).toMatchObject({
      metric: "judge_mean",
      judge: "offline",
      last_count: 44,
    });
  });

  it("measures each metric through an index, not by scanning the answers or the feedback", async () => {
    await ingest(3, true, at(0), { service: "shop" });
    const { db } = use();
    const cases = [
      {
        metric: "gate_pass_rate",
        filter: {},
        index: /workspace_id_received_at_idx|workspace_received/,
      },
      { metric: "latency_p95_ms", filter: { model: "m" }, index: /workspace_id_received_at_idx/ },
      { metric: "thumbs_down_share", filter: {}, index: /answer_feedback_workspace_created_idx/ },
      {
        metric: "thumbs_down_share",
        filter: { service: "shop" },
        index: /answer_feedback_workspace_created_idx/,
      },
      {
        metric: "judge_mean",
        filter: { service: "shop", model: "m" },
        index: /Index (Only )?Scan using judge_rollups_workspace_id_grain_minute_/,
      },
    ] as const;
    for (const { metric, filter, index } of cases) {
      const query = alertMetricQuery(
        db,
        { workspace_id: workspaceId, metric, judge: "offline", filter },
        at(-15),
        at(1),
      );
      // With sequential scans priced out, a plan still scanning means no index fits the query.
      const plan = await db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        const result = (await tx.execute(sql`explain ${query}`)) as unknown as {
          rows: Record<string, string>[];
        };
        return result.rows.map((row) => Object.values(row).join(" ")).join("\n");
      });
      expect(plan, `${metric} ${JSON.stringify(filter)}`).toMatch(index);
      expect(plan, `${metric} ${JSON.stringify(filter)}`).not.toMatch(/Seq Scan/);
    }
  });

  it("refuses a webhook address the network policy does not allow, when the rule is made and when it is delivered", async () => {
    const refused = await call("POST", "/api/v1/alert-rules", {
      name: "private",
      metric: "gate_pass_rate",
      comparison: "below",
      threshold: 0.9,
      webhook_url: "http://10.1.2.3/hook",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.issues[0]).toMatchObject({ path: "webhook_url" });
    expect(refused.body.issues[0].message).toContain("private");

    // Allowed when made; the evaluator's policy (the default: public addresses only) refuses it
    // at the connection.
    const rule = await createRule();
    await ingest(6, false, at(0));
    const result = await evaluateAt(at(1), {
      fetch: createPolicyFetch(restrictedBotNetwork({})),
    });
    expect(result.delivery).toMatchObject({ attempts: 1, outcome: "refused" });
    expect(result.delivery?.detail).toContain("does not allow 127.0.0.1");
    expect(receiver.received).toHaveLength(0);
    const history = await call("GET", `/api/v1/alert-rules/${rule.id}/events`);
    expect(history.body.items[0].fired_delivery.outcome).toBe("refused");
  });

  it("validates each field by name, and keeps rules to their owner", async () => {
    const bad = await call("POST", "/api/v1/alert-rules", {
      name: "",
      metric: "gate_pass_rate",
      comparison: "sideways",
      threshold: 2,
      window_minutes: 0,
      min_count: 0,
      cooldown_minutes: 99_999,
      filter: { service: "x", tenant: "y" },
      webhook_url: "ftp://example.com/",
    });
    expect(bad.status).toBe(400);
    const paths = (bad.body.issues as { path: string }[]).map((i) => i.path).sort();
    expect(paths).toEqual(
      expect.arrayContaining([
        "comparison",
        "cooldown_minutes",
        "filter",
        "min_count",
        "name",
        "webhook_url",
        "window_minutes",
      ]),
    );
    const threshold = await call("POST", "/api/v1/alert-rules", {
      name: "t",
      metric: "gate_pass_rate",
      comparison: "below",
      threshold: 2,
      webhook_url: receiver.url,
    });
    expect(threshold.body.issues).toEqual([
      { path: "threshold", message: "the gate pass rate is between 0 and 1" },
    ]);

    const noJudge = await call("POST", "/api/v1/alert-rules", {
      name: "j",
      metric: "judge_mean",
      comparison: "below",
      threshold: 0.5,
      webhook_url: receiver.url,
    });
    expect(noJudge.status).toBe(400);
    expect(noJudge.body.issues).toEqual([
      {
        path: "judge",
        message: "a judge's mean names its judge: one of offline, token_precision, review, rubric",
      },
    ]);

    const rule = await createRule();
    const toJudge = await call("PATCH", `/api/v1/alert-rules/${rule.id}`, { metric: "judge_mean" });
    expect(toJudge.status).toBe(400);
    expect(toJudge.body.issues[0].path).toBe("judge");
    const judgedRule = await call("PATCH", `/api/v1/alert-rules/${rule.id}`, {
      metric: "judge_mean",
      judge: "review",
    });
    expect(judgedRule.body).toMatchObject({ metric: "judge_mean", judge: "review" });
    // Back to the pass rate, the rule forgets its judge.
    const back = await call("PATCH", `/api/v1/alert-rules/${rule.id}`, {
      metric: "gate_pass_rate",
    });
    expect(back.body).toMatchObject({ metric: "gate_pass_rate", judge: null });
    const patched = await call("PATCH", `/api/v1/alert-rules/${rule.id}`, { threshold: 0.5 });
    expect(patched.body).toMatchObject({ threshold: 0.5, name: "pass rate" });
    const badPatch = await call("PATCH", `/api/v1/alert-rules/${rule.id}`, {
      metric: "latency_p95_ms",
      threshold: -1,
    });
    expect(badPatch.body.issues[0].path).toBe("threshold");
    const taken = await call("POST", "/api/v1/alert-rules", {
      name: "pass rate",
      metric: "gate_pass_rate",
      comparison: "below",
      threshold: 0.9,
      webhook_url: receiver.url,
    });
    expect(taken.status).toBe(409);

    const bob = await createApiToken(use().db, (await findOrCreateUser(use().db, "alerts-bob")).id);
    for (const [method, path] of [
      ["GET", `/api/v1/alert-rules/${rule.id}`],
      ["GET", `/api/v1/alert-rules/${rule.id}/events`],
      ["PATCH", `/api/v1/alert-rules/${rule.id}`],
      ["DELETE", `/api/v1/alert-rules/${rule.id}`],
    ] as const) {
      const response = await call(
        method,
        path,
        method === "PATCH" ? { enabled: false } : undefined,
        bob,
      );
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect((await call("GET", "/api/v1/alert-rules", undefined, bob)).body.items).toEqual([]);
    expect((await call("DELETE", `/api/v1/alert-rules/${rule.id}`)).status).toBe(204);
    expect((await call("GET", `/api/v1/alert-rules/${rule.id}`)).status).toBe(404);
  });
});

it("docs/production.md's signature check is the example the tests run", () => {
  const { lines, example } = snippetAndExample(
    "### Checking the signature",
    "examples/alerts/verify-signature.mjs",
    "docs/production.md",
  );
  expect(lines.length).toBeGreaterThan(5);
  for (const line of lines) expect(example, line).toContain(line);
});
