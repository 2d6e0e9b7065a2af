// Monitors (issue 24 §2) and rollups (§3), on both stores: definitions over the API, the filter
// and sample, the budget decided as answers arrive (the rest skipped and counted, never judged
// late), the judges run by the monitor-judge worker once per (monitor, answer) however often its
// job is delivered, results beside the gate and feedback, and per-minute rollups that survive
// retention.

import { sql } from "drizzle-orm";
import { afterEach, beforeEach, expect, it } from "vitest";
import { DEFAULT_JUDGES_CONFIG } from "../src/judges/index.js";
import { type Jobs, startJobs } from "../src/jobs/index.js";
import {
  type AnswerInputIn,
  AnswerInputSchema,
  ingestAnswers,
  type MonitorWorker,
  sampledIn,
  sendMonitorJobs,
  startMonitorWorker,
} from "../src/production/index.js";
import { createApp } from "../src/server/index.js";
import { calibrateMonitor } from "../src/evals/calibration/index.js";
import {
  claimJudgment,
  createApiToken,
  createIngestKey,
  dropAnswerDaysBefore,
  finishJudgment,
  findOrCreateUser,
  queryRows,
} from "../src/store/index.js";
import { describeEachStore } from "./support/stores.js";
import { scriptedClient, useScriptedLlm } from "./support/use-scripted-llm.js";

const HIT = "The Lanting bridge was built in 1870 by the river guild. Tickets cost 12 yuan.";
const REVIEW_REPLY = {
  reason: "Supported by the first context.",
  suggestion: "None.",
  score: 1,
  analysis: "ok",
  accuracy: 8,
  completeness: 8,
  clarity: 9,
  reasonableness: { passed: true, problems: [] },
  evidence: { passed: true, problems: [] },
};

function answer(message: string, extra: Partial<AnswerInputIn> = {}): AnswerInputIn {
  return {
    conversation_id: "conv-m",
    message_id: message,
    retrieval_record: { id: `r-${message}`, query: "When was the bridge built?" },
    retrieval_hits: [{ node_id: "n1", content: HIT }],
    generation_record: { id: `g-${message}`, model: "gpt-4o-mini" },
    generation_output: { answer: "It was built in 1870 [n1].", citations: [{ node_id: "n1" }] },
    service: "support-bot",
    collection: "bridges",
    ...extra,
  };
}

const MONITOR = {
  name: "review everything",
  sample_rate: 1,
  judges: ["review"],
  max_calls_per_minute: 1000,
  max_calls_per_day: 100000,
};

const T0 = Date.UTC(2026, 10, 26, 9, 0, 10);

describeEachStore("monitors", (use) => {
  const llm = useScriptedLlm({ rules: [{ reply: { json: REVIEW_REPLY } }] });
  let app: ReturnType<typeof createApp>;
  let alice = "";
  let aliceId = "";
  let bob = "";
  let jobs: Jobs | undefined;
  let worker: MonitorWorker | undefined;

  beforeEach(async () => {
    const { db } = use();
    app = createApp({ db });
    aliceId = (await findOrCreateUser(db, "monitor-alice")).id;
    alice = await createApiToken(db, aliceId);
    bob = await createApiToken(db, (await findOrCreateUser(db, "monitor-bob")).id);
  });
  afterEach(async () => {
    await worker?.stop();
    await jobs?.stop();
    worker = undefined;
    jobs = undefined;
  });

  const call = (method: string, path: string, token: string, json?: unknown) =>
    app.request(path, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });

  async function createMonitor(body: Record<string, unknown>): Promise<string> {
    const response = await call("POST", "/api/v1/monitors", alice, body);
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  /** Ingests as the API does, with the app's dispatch (no job queue: judgments stay queued). */
  function ingest(
    answers: AnswerInputIn[],
    at: number,
    extra: { send?: (ids: string[]) => Promise<void> } = {},
  ) {
    return ingestAnswers(
      answers.map((a) => AnswerInputSchema.parse(a)),
      {
        db: use().db,
        workspaceId: aliceId,
        source: "api",
        now: new Date(at),
        monitors: { db: use().db, ...extra },
        onMonitorError: (error) => {
          throw error;
        },
      },
    );
  }

  const judgments = (monitorId: string) =>
    queryRows<{ answer_id: string; status: string; skip_reason: string | null; results: unknown }>(
      use().db,
      sql`select answer_id, status, skip_reason, results from monitor_judgments
          where monitor_id = ${monitorId} order by created_at, answer_id`,
    );

  it("is created, listed, changed and deleted over the API; another user's is 404; a bad field is named", async () => {
    const id = await createMonitor({
      ...MONITOR,
      filter: { collection: "bridges", gate: ["fail"] },
    });
    const list = (await (await call("GET", "/api/v1/monitors", alice)).json()) as {
      items: { id: string; filter: unknown; last_24h: { matched: number } }[];
    };
    expect(list.items.map((m) => [m.id, m.filter, m.last_24h.matched])).toEqual([
      [id, { collection: "bridges", gate: ["fail"] }, 0],
    ]);
    expect((await call("GET", `/api/v1/monitors/${id}`, bob)).status).toBe(404);
    expect((await call("PUT", `/api/v1/monitors/${id}`, bob, MONITOR)).status).toBe(404);
    expect((await call("DELETE", `/api/v1/monitors/${id}`, bob)).status).toBe(404);
    const changed = await call("PUT", `/api/v1/monitors/${id}`, alice, {
      ...MONITOR,
      sample_rate: 0.25,
    });
    expect(await changed.json()).toMatchObject({ sample_rate: 0.25, filter: {} });
    const bad = await call("POST", "/api/v1/monitors", alice, {
      ...MONITOR,
      sample_rate: 1.5,
      judges: ["reference"],
    });
    expect(bad.status).toBe(400);
    const paths = ((await bad.json()) as { issues: { path: string }[] }).issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(["sample_rate", "judges.0"]));
    // A write-only ingest key reaches no monitor route.
    const key = (await createIngestKey(use().db, { workspaceId: aliceId, userId: aliceId }, "app"))
      .key;
    expect((await call("GET", "/api/v1/monitors", key)).status).toBe(403);
    expect((await call("POST", "/api/v1/monitors", key, MONITOR)).status).toBe(403);
    expect((await call("GET", "/api/v1/production/series", key)).status).toBe(403);
    expect((await call("DELETE", `/api/v1/monitors/${id}`, alice)).status).toBe(200);
    expect((await call("GET", `/api/v1/monitors/${id}`, alice)).status).toBe(404);
  });

  it("spends the budget as answers arrive: past it, answers are skipped and counted, and a later minute is not given the burst", async () => {
    // review is one LLM call an answer: 3 a minute, 5 a day.
    const id = await createMonitor({ ...MONITOR, max_calls_per_minute: 3, max_calls_per_day: 5 });
    await ingest(
      Array.from({ length: 10 }, (_, i) => answer(`burst-${i}`)),
      T0,
    );
    let rows = await judgments(id);
    expect(rows.filter((r) => r.status === "queued")).toHaveLength(3);
    expect(rows.filter((r) => r.status === "skipped")).toHaveLength(7);
    expect(rows.find((r) => r.status === "skipped")?.skip_reason).toMatch(/per minute was spent/);
    // The next minute has room for 3 more, the day for only 2.
    await ingest(
      Array.from({ length: 4 }, (_, i) => answer(`later-${i}`)),
      T0 + 60_000,
    );
    rows = await judgments(id);
    expect(rows.filter((r) => r.status === "queued")).toHaveLength(5);
    expect(rows.filter((r) => r.status === "skipped")).toHaveLength(9);
    expect(rows.filter((r) => r.skip_reason?.includes("per day was spent"))).toHaveLength(2);
    const minutes = await queryRows<{ matched: number; skipped: number; llm_calls: number }>(
      use().db,
      sql`select matched, skipped, llm_calls from monitor_minutes where monitor_id = ${id} order by minute`,
    );
    expect(minutes).toEqual([
      { matched: 10, skipped: 7, llm_calls: 3 },
      { matched: 4, skipped: 2, llm_calls: 2 },
    ]);
    // A re-sent answer is a duplicate: no monitor takes it up again.
    await ingest([answer("burst-0")], T0 + 120_000);
    expect(await judgments(id)).toHaveLength(14);
  });

  it("takes up only answers its filter matches, then a sample of them, the same ones every time", async () => {
    const id = await createMonitor({
      ...MONITOR,
      judges: ["offline"],
      sample_rate: 0.5,
      filter: { collection: "bridges", metadata: { tenant: "acme" }, gate: ["pass"] },
    });
    const stored = await ingest(
      [
        ...Array.from({ length: 40 }, (_, i) => answer(`s-${i}`, { metadata: { tenant: "acme" } })),
        answer("other-tenant", { metadata: { tenant: "globex" } }),
        answer("other-collection", { collection: "ferries", metadata: { tenant: "acme" } }),
        answer("failing", {
          metadata: { tenant: "acme" },
          generation_output: {
            answer: "It was built in 1990 [n1].",
            citations: [{ node_id: "n1" }],
          },
        }),
      ],
      T0,
    );
    const kept = stored
      .slice(0, 40)
      .filter((s) => sampledIn(id, s.id, 0.5))
      .map((s) => s.id)
      .sort();
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.length).toBeLessThan(35);
    const rows = await judgments(id);
    expect(rows.map((r) => r.answer_id).sort()).toEqual(kept);
    // Offline judges cost no LLM call: no budget applies.
    expect(rows.every((r) => r.status === "queued")).toBe(true);
    const [minute] = await queryRows<{ matched: number; sampled_out: number }>(
      use().db,
      sql`select matched, sampled_out from monitor_minutes where monitor_id = ${id}`,
    );
    expect(minute).toEqual({ matched: 40, sampled_out: 40 - kept.length });
  });

  it("takes an answer up when the feedback its filter waits for arrives, once", async () => {
    const id = await createMonitor({ ...MONITOR, filter: { feedback: "down" } });
    const [stored] = await ingest([answer("fb")], T0);
    expect(await judgments(id)).toEqual([]);
    const feedback = (thumb: string) =>
      call("POST", `/api/v1/answers/${stored?.id}/feedback`, alice, { thumb });
    expect((await feedback("up")).status).toBe(201);
    expect(await judgments(id)).toEqual([]);
    expect((await feedback("down")).status).toBe(201);
    expect((await feedback("down")).status).toBe(201);
    expect((await judgments(id)).map((r) => r.status)).toEqual(["queued"]);
  });

  it("judges each answer once on the worker, however often its job is delivered, and shows the result beside the gate", async () => {
    const { db } = use();
    jobs = await startJobs(use(), { expireInSeconds: 5, heartbeatSeconds: 1 });
    const client = scriptedClient(llm, "judge");
    const running = jobs;
    worker = startMonitorWorker({
      jobs: running,
      clientsFor: () => ({ judge: client }),
      judges: DEFAULT_JUDGES_CONFIG,
      onError: (error) => {
        throw error;
      },
    });
    const id = await createMonitor({ ...MONITOR, judges: ["review", "offline"] });
    const stored = await ingest(
      Array.from({ length: 3 }, (_, i) => answer(`w-${i}`)),
      Date.now(),
      { send: (ids) => sendMonitorJobs(running, ids) },
    );
    await expect
      .poll(async () => (await judgments(id)).map((r) => r.status), { timeout: 30_000 })
      .toEqual(["done", "done", "done"]);
    expect(llm.requests).toHaveLength(3);
    // Every job delivered again (a redelivery after a lost completion): nothing is judged twice.
    const ids = (
      await queryRows<{ id: string }>(
        db,
        sql`select id from monitor_judgments where monitor_id = ${id}`,
      )
    ).map((r) => r.id);
    await sendMonitorJobs(running, ids);
    await expect
      .poll(
        async () =>
          (
            await queryRows<{ n: number }>(
              db,
              sql`select count(*)::int as n from pgboss.job where name = 'monitor-judge' and state = 'completed'`,
            )
          )[0]?.n,
        { timeout: 30_000 },
      )
      .toBe(6);
    expect(llm.requests).toHaveLength(3);
    const detail = (await (
      await call("GET", `/api/v1/answers/${stored[0]?.id}`, alice)
    ).json()) as {
      gate: { status: string };
      judgments: {
        monitor_name: string;
        status: string;
        results: Record<string, { outcome: string; score: number }>;
      }[];
    };
    expect(detail.gate.status).toBe("pass");
    expect(detail.judgments).toMatchObject([
      {
        monitor_name: "review everything",
        status: "done",
        results: { review: { outcome: "ok", score: 1 }, offline: { outcome: "ok" } },
      },
    ]);
    const [rollup] = await queryRows<{ count: number }>(
      db,
      sql`select sum(count)::int as count from judge_rollups where judge = 'review' and meta_key = '' and grain = 60`,
    );
    expect(rollup?.count).toBe(3);
  });

  it("calibrates a monitor's judge against people's thumbs on the same answers", async () => {
    const { db } = use();
    const id = await createMonitor({ ...MONITOR, judges: ["offline"] });
    const stored = await ingest(
      Array.from({ length: 5 }, (_, i) => answer(`cal-${i}`)),
      T0,
    );
    // The judge passes answers 0-2 and fails 3-4 (written as a worker would, under a claim).
    const rows = await queryRows<{ id: string; answer_id: string }>(
      db,
      sql`select id, answer_id from monitor_judgments where monitor_id = ${id}`,
    );
    for (const row of rows) {
      const index = stored.findIndex((s) => s.id === row.answer_id);
      const passed = index < 3;
      expect(await claimJudgment(db, row.id, "job-cal")).toBeDefined();
      expect(
        await finishJudgment(db, {
          judgmentId: row.id,
          jobId: "job-cal",
          status: "done",
          results: { offline: { outcome: "ok", score: passed ? 0.9 : 0.2, passed } },
          scores: [{ judge: "offline", score: passed ? 0.9 : 0.2, passed }],
        }),
      ).toBe(true);
    }
    // People: up, up, down on the judge's passes; down on a fail; nothing on the last. The
    // latest thumb counts (answer 2 was first thumbed up).
    const thumb = (i: number, value: string) =>
      call("POST", `/api/v1/answers/${stored[i]?.id}/feedback`, alice, { thumb: value });
    for (const [i, value] of [
      [0, "up"],
      [1, "up"],
      [2, "up"],
      [2, "down"],
      [3, "down"],
    ] as const) {
      expect((await thumb(i, value)).status).toBe(201);
    }
    const report = await calibrateMonitor(db, aliceId, id);
    expect(report.judge).toBe("offline");
    expect(report.items).toMatchObject({ judged: 5, labelled_pass: 4 });
    expect(report.pass_fail).toMatchObject({ n: 4, tp: 2, fp: 1, tn: 1, fn: 0 });
    expect(report.disagreements.map((d) => d.result_id)).toEqual([stored[2]?.id]);
    await expect(calibrateMonitor(db, aliceId, id, { judge: "review" })).rejects.toThrow(/judge/);
    const bobId = (await findOrCreateUser(db, "monitor-bob")).id;
    await expect(calibrateMonitor(db, bobId, id)).rejects.toThrow(/not found/);
  });

  it("keeps per-minute rollups of answers and feedback that retention leaves, read by the series API beside the previous period", async () => {
    const { db } = use();
    const day1 = Date.UTC(2026, 10, 20, 10, 5, 0);
    const stored = await ingestAnswers(
      [
        answer("r1", {
          latency_ms: 80,
          usage: { prompt_tokens: 100, completion_tokens: 20 },
          metadata: { tenant: "acme" },
        }),
        answer("r2", {
          latency_ms: 300,
          usage: { prompt_tokens: 50, completion_tokens: 10 },
          metadata: { tenant: "globex" },
        }),
        answer("r3", {
          latency_ms: 3_000,
          generation_output: {
            answer: "It was built in 1990 [n1].",
            citations: [{ node_id: "n1" }],
          },
        }),
      ].map((a) => AnswerInputSchema.parse(a)),
      { db, workspaceId: aliceId, source: "api", now: new Date(day1), breakdownKeys: ["tenant"] },
    );
    // An hour earlier (the previous period of an hour-long read): one answer.
    await ingestAnswers([AnswerInputSchema.parse(answer("p1", { latency_ms: 50 }))], {
      db,
      workspaceId: aliceId,
      source: "api",
      now: new Date(day1 - 3_600_000),
    });
    expect(
      (await call("POST", `/api/v1/answers/${stored[0]?.id}/feedback`, alice, { thumb: "up" }))
        .status,
    ).toBe(201);
    expect(
      (
        await call("POST", `/api/v1/answers/${stored[2]?.id}/feedback`, alice, {
          thumb: "down",
          score: 0.2,
        })
      ).status,
    ).toBe(201);
    // Retention drops every answer; the rollups stay.
    await dropAnswerDaysBefore(db, new Date(Date.UTC(2026, 10, 25)));
    const [left] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from answer_records`,
    );
    expect(left?.n).toBe(0);
    const read = async (query: string) => {
      const response = await call("GET", `/api/v1/production/series?${query}`, alice);
      expect(response.status).toBe(200);
      return (await response.json()) as {
        current: { start: string; count: number }[];
        previous: { count: number }[];
        totals: { current: Record<string, number | null>; previous: Record<string, number | null> };
        breakdown: { by: string; rows: { value: string; current: { count: number } }[] };
      };
    };
    const series = await read(
      `service=support-bot&bucket=minute&from=2026-11-20T10:00:00Z&to=2026-11-20T11:00:00Z`,
    );
    expect(series.current).toHaveLength(60);
    expect(series.current[5]).toMatchObject({ start: "2026-11-20T10:05:00.000Z", count: 3 });
    expect(series.totals.current).toMatchObject({
      count: 3,
      gate_pass_rate: 2 / 3,
      feedback_up: 1,
      feedback_down: 1,
      feedback_score: 0.2,
      latency_mean_ms: (80 + 300 + 3000) / 3,
      latency_p95_ms: 5_000,
      prompt_tokens: 150,
      completion_tokens: 30,
    });
    expect(series.totals.previous).toMatchObject({ count: 1, latency_mean_ms: 50 });
    const byTenant = await read(
      `collection=bridges&bucket=hour&from=2026-11-20T10:00:00Z&to=2026-11-20T11:00:00Z&breakdown=metadata.tenant`,
    );
    expect(byTenant.breakdown.rows.map((r) => [r.value, r.current.count])).toEqual([
      ["acme", 1],
      ["globex", 1],
    ]);
    // Another user's rollups are not in the read.
    const bobs = (await (
      await call(
        "GET",
        `/api/v1/production/series?bucket=hour&from=2026-11-20T10:00:00Z&to=2026-11-20T11:00:00Z`,
        bob,
      )
    ).json()) as { totals: { current: { count: number } } };
    expect(bobs.totals.current.count).toBe(0);
    const bad = await call(
      "GET",
      "/api/v1/production/series?bucket=minute&from=2020-01-01T00:00:00Z",
      alice,
    );
    expect(bad.status).toBe(400);
  });
});
