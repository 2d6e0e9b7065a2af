import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { createApp } from "../src/server/index.js";
import {
  createApiToken,
  createEvaluation,
  createQuestionSet,
  deleteEvaluation,
  findOrCreateUser,
  recountEvaluation,
  schema,
  transitionEvaluation,
} from "../src/store/index.js";
import { describeEachStore } from "./support/stores.js";

// The endpoints the web app's pages read: filtered result pages, exports, comparisons, charts
// and trends. Runs are written straight to the store (as a worker would leave them), so each
// test states exactly which results exist.

interface Seeded {
  question_id: string;
  text: string;
  type?: string;
  status?: "SCORED" | "BOT_ERROR" | "JUDGE_ERROR" | "PENDING";
  score?: number;
  passed?: boolean;
  gate?: "pass" | "partial" | "fail" | null;
  answer?: string;
  /** The rubric judge's dimensions, 1-10. */
  rubric?: { accuracy: number; completeness: number; clarity: number };
}

describeEachStore("evaluation pages API", (use) => {
  const request = (token: string, path: string) =>
    createApp({ db: use().db, webDir: false }).request(`http://127.0.0.1${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
  const json = async <T>(token: string, path: string): Promise<T> => {
    const response = await request(token, path);
    expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
    return (await response.json()) as T;
  };

  async function user(name: string) {
    const { db } = use();
    const row = await findOrCreateUser(db, name);
    return { id: row.id, token: await createApiToken(db, row.id) };
  }

  async function questionSet(workspaceId: string, name: string) {
    return createQuestionSet(use().db, workspaceId, { user_id: workspaceId, name }, [
      {
        question_type: "FACTUAL",
        question_text: "placeholder",
        ground_truth: "",
        question_key: "placeholder",
      },
    ]);
  }

  async function seedRun(workspaceId: string, setId: string | null, name: string, rows: Seeded[]) {
    const { db } = use();
    const run = await createEvaluation(db, workspaceId, {
      user_id: workspaceId,
      name,
      question_set_id: setId,
      bot_id: "builtin",
      judge_llm_model_id: "offline",
      config: {},
      questions: rows.map((row) => ({
        question_id: row.question_id,
        question_type: row.type ?? "FACTUAL",
        question_text: row.text,
        ground_truth: `truth of ${row.question_id}`,
      })),
    });
    for (const row of rows) {
      const status = row.status ?? "SCORED";
      const judges = row.rubric
        ? {
            rubric: {
              name: "rubric",
              outcome: "ok",
              score: row.score ?? 0,
              raw_score: 1 + 9 * (row.score ?? 0),
              passed: row.passed ?? false,
              defaulted: false,
              verdict: { ...row.rubric, weighted_score: 1 + 9 * (row.score ?? 0) },
            },
          }
        : null;
      await db
        .update(schema.evaluation_results)
        .set({
          status,
          score: status === "SCORED" ? (row.score ?? null) : null,
          passed: status === "SCORED" ? (row.passed ?? null) : null,
          gate_status: row.gate ?? null,
          rag_answer: row.answer ?? `answer to ${row.question_id}`,
          rag_citations: [],
          judges,
          error: status.endsWith("_ERROR") ? "bot error: refused" : null,
        })
        .where(
          and(
            eq(schema.evaluation_results.evaluation_id, run.id),
            eq(schema.evaluation_results.question_id, row.question_id),
          ),
        );
    }
    await recountEvaluation(db, run.id);
    await transitionEvaluation(db, run.id, ["PENDING"], "COMPLETED");
    return run;
  }

  const BASE_ROWS: Seeded[] = [
    { question_id: "q1", text: "When did Line 1 open?", score: 0.9, passed: true, gate: "pass" },
    {
      question_id: "q2",
      text: "How many lines are there?",
      score: 0.8,
      passed: true,
      gate: "partial",
      rubric: { accuracy: 10, completeness: 7, clarity: 4 },
    },
    {
      question_id: "q3",
      text: "Why was the 2016 flood so damaging?",
      type: "INFERENTIAL",
      score: 0.2,
      passed: false,
      gate: "fail",
      answer: "Because of 100% rain",
      rubric: { accuracy: 4, completeness: 1, clarity: 10 },
    },
    { question_id: "q4", text: "Who founded the city?", status: "BOT_ERROR" },
  ];

  it("pages a run's results with filters and the total that match", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const run = await seedRun(alice.id, null, "base", BASE_ROWS);
    type Page = { items: Array<{ question_id: string }>; total: number; limit: number };
    const ids = async (query: string) => {
      const page = await json<Page>(alice.token, `/api/v1/evaluations/${run.id}/results${query}`);
      return { ids: page.items.map((r) => r.question_id), total: page.total };
    };

    expect(await ids("")).toEqual({ ids: ["q1", "q2", "q3", "q4"], total: 4 });
    expect(await ids("?limit=2&offset=1")).toEqual({ ids: ["q2", "q3"], total: 4 });
    // Past the end of the matches, and a filter nothing matches: no rows, the total still right.
    expect(await ids("?offset=10")).toEqual({ ids: [], total: 4 });
    expect(await ids("?passed=true&offset=2")).toEqual({ ids: [], total: 2 });
    expect(await ids("?q=nowhere")).toEqual({ ids: [], total: 0 });
    expect(await ids("?status=bot_error")).toEqual({ ids: ["q4"], total: 1 });
    expect(await ids("?passed=true")).toEqual({ ids: ["q1", "q2"], total: 2 });
    expect(await ids("?passed=false")).toEqual({ ids: ["q3"], total: 1 });
    expect(await ids("?gate=fail,partial")).toEqual({ ids: ["q2", "q3"], total: 2 });
    expect(await ids("?gate=none")).toEqual({ ids: ["q4"], total: 1 });
    expect(await ids("?question_type=INFERENTIAL")).toEqual({ ids: ["q3"], total: 1 });
    expect(await ids("?score_min=0.5&score_max=0.85")).toEqual({ ids: ["q2"], total: 1 });
    expect(await ids("?q=LINE")).toEqual({ ids: ["q1", "q2"], total: 2 });
    // LIKE's own characters are searched for as text.
    expect(await ids("?q=100%25")).toEqual({ ids: ["q3"], total: 1 });
    expect(await ids("?q=%25")).toEqual({ ids: ["q3"], total: 1 });
    expect(await ids("?passed=true&gate=pass")).toEqual({ ids: ["q1"], total: 1 });

    for (const [bad, field] of [
      ["?gate=maybe", "gate"],
      ["?passed=yes", "passed"],
      ["?score_min=2", "score_min"],
      ["?status=LOST", "status"],
    ]) {
      const response = await request(alice.token, `/api/v1/evaluations/${run.id}/results${bad}`);
      expect(response.status, bad).toBe(400);
      // Each parameter at fault is named, so the page can show the error beside its field.
      expect(await response.json(), bad).toMatchObject({
        error: "invalid_query",
        issues: [{ path: field, message: expect.any(String) }],
      });
    }
    expect((await request(bob.token, `/api/v1/evaluations/${run.id}/results`)).status).toBe(404);
    // A deleted run's results are gone from the list too.
    await deleteEvaluation(use().db, alice.id, run.id);
    expect((await request(alice.token, `/api/v1/evaluations/${run.id}/results`)).status).toBe(404);
  });

  it("lists light rows and serves one result in full, to its owner only", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const long = `${"The harbour opened in 1784. ".repeat(20)}[n1]`;
    const run = await seedRun(alice.id, null, "base", [
      { ...BASE_ROWS[0]!, answer: long },
      ...BASE_ROWS.slice(1),
    ]);
    const other = await seedRun(alice.id, null, "other", BASE_ROWS);
    const { db } = use();
    await db
      .update(schema.evaluation_results)
      .set({ rag_answer_sources: [{ node_id: "n1", content: "In 1784 the harbour opened." }] })
      .where(eq(schema.evaluation_results.evaluation_id, run.id));

    type Item = Record<string, unknown> & { id: string; question_id: string };
    const page = await json<{ items: Item[] }>(
      alice.token,
      `/api/v1/evaluations/${run.id}/results`,
    );
    const [first, , third, errored] = page.items;
    // A row carries what a collapsed card shows, not the sources, checks, judges or trace.
    for (const heavy of ["rag_answer", "rag_answer_sources", "judges", "gate", "rag_tool_calls"])
      expect(first, heavy).not.toHaveProperty(heavy);
    expect(first).toMatchObject({
      question_id: "q1",
      score: 0.9,
      passed: true,
      gate_status: "pass",
    });
    expect(first?.answer_excerpt).toBe(long.slice(0, 240));
    expect(first?.answer_length).toBe(long.length);
    expect(third).toMatchObject({ answer_excerpt: "Because of 100% rain", answer_length: 20 });
    expect(errored).toMatchObject({ status: "BOT_ERROR", error: "bot error: refused" });

    const path = (runId: string, resultId: string) =>
      `/api/v1/evaluations/${runId}/results/${resultId}`;
    const full = await json<Record<string, unknown>>(alice.token, path(run.id, first!.id));
    expect(full).toMatchObject({
      id: first!.id,
      question_id: "q1",
      ground_truth: "truth of q1",
      rag_answer: long,
      rag_answer_sources: [{ node_id: "n1", content: "In 1784 the harbour opened." }],
    });
    expect(full).not.toHaveProperty("user_id");

    // Another user's result, a result of another run, and malformed ids are all not found.
    const otherResult = (
      await json<{ items: Item[] }>(alice.token, `/api/v1/evaluations/${other.id}/results`)
    ).items[0]!.id;
    for (const [token, p] of [
      [bob.token, path(run.id, first!.id)],
      [alice.token, path(run.id, otherResult)],
      [alice.token, path(other.id, first!.id)],
      [alice.token, path(run.id, "not-a-uuid")],
      [alice.token, path("not-a-uuid", first!.id)],
    ] as const) {
      const response = await request(token, p);
      expect(response.status, p).toBe(404);
      expect(await response.json(), p).toMatchObject({ error: "not_found" });
    }
  });

  it("exports the filtered results as CSV and JSON, to their owner only", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const run = await seedRun(alice.id, null, "base", BASE_ROWS);

    const csv = await request(alice.token, `/api/v1/evaluations/${run.id}/export?passed=true`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename=".*\.csv"/);
    const lines = (await csv.text()).trim().split("\n");
    expect(lines[0]).toBe(
      "position,question_id,question_type,question_text,ground_truth,status,score,passed,gate_status,rubric_score,answer,citations,latency_ms,error",
    );
    expect(lines.slice(1).map((line) => line.split(",")[1])).toEqual(["q1", "q2"]);
    // Positions count from 1, as the web app numbers the questions (issue 23 §5).
    expect(lines.slice(1).map((line) => line.split(",")[0])).toEqual(["1", "2"]);

    const file = await request(
      alice.token,
      `/api/v1/evaluations/${run.id}/export?format=json&status=SCORED&q=flood`,
    );
    expect(file.headers.get("content-type")).toMatch(/^application\/json/);
    const items = (await file.json()) as Array<{ question_id: string; user_id?: string }>;
    expect(items.map((item) => item.question_id)).toEqual(["q3"]);
    expect(items[0]).not.toHaveProperty("user_id");
    // The file holds every result in full, not the list's light rows.
    expect(items[0]).toMatchObject({
      ground_truth: "truth of q3",
      rag_answer: "Because of 100% rain",
      judges: { rubric: { verdict: { accuracy: 4, completeness: 1, clarity: 10 } } },
    });

    expect(
      (await request(alice.token, `/api/v1/evaluations/${run.id}/export?format=xml`)).status,
    ).toBe(400);
    expect((await request(bob.token, `/api/v1/evaluations/${run.id}/export`)).status).toBe(404);
  });

  it("compares two runs on one set, regressions first, with both radars", async () => {
    const alice = await user("alice");
    const set = await questionSet(alice.id, "metro");
    const base = await seedRun(alice.id, set.id, "base", BASE_ROWS);
    const head = await seedRun(alice.id, set.id, "head", [
      { ...BASE_ROWS[0]!, score: 0.3, passed: false, gate: "fail" }, // regression
      { ...BASE_ROWS[1]!, score: 0.95, rubric: { accuracy: 10, completeness: 10, clarity: 7 } },
      { ...BASE_ROWS[2]! }, // unchanged
      { ...BASE_ROWS[3]!, status: "SCORED", score: 0.6, passed: true, gate: "pass" },
      { question_id: "q5", text: "A question only the head run has", score: 0.5, passed: false },
    ]);
    type Comparison = {
      matched_by: string;
      counts: Record<string, number | null>;
      items: Array<{ base: { question_id: string }; change: string; score_delta: number | null }>;
      base: { evaluation: { id: string }; radar: Array<{ dimension: string; mean: number }> };
      head: { evaluation: { id: string }; radar: Array<{ dimension: string; mean: number }> };
    };
    const result = await json<Comparison>(
      alice.token,
      `/api/v1/evaluations/compare?base=${base.id}&head=${head.id}`,
    );
    expect(result.matched_by).toBe("question_id");
    expect(result.items.map((i) => [i.base.question_id, i.change])).toEqual([
      ["q1", "regression"],
      ["q4", "improvement"],
      ["q2", "improvement"],
      ["q3", "unchanged"],
    ]);
    expect(result.items[0]?.score_delta).toBeCloseTo(-0.6);
    expect(result.counts).toMatchObject({
      shared: 4,
      only_base: 0,
      only_head: 1,
      regressions: 1,
      improvements: 2,
      unchanged: 1,
      passed_to_failed: 1,
      failed_to_passed: 0,
    });
    expect(result.base.evaluation.id).toBe(base.id);
    const accuracy = (radar: Comparison["base"]["radar"]) =>
      radar.find((d) => d.dimension === "completeness")?.mean;
    expect(accuracy(result.base.radar)).toBe(4);
    expect(accuracy(result.head.radar)).toBe(5.5);
  });

  it("compares runs on different sets on the questions they share, and hides others' runs", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const base = await seedRun(alice.id, (await questionSet(alice.id, "a")).id, "a", BASE_ROWS);
    const other = await seedRun(alice.id, (await questionSet(alice.id, "b")).id, "b", [
      { question_id: "x1", text: "  when did LINE 1   open? ", score: 0.9, passed: true },
      { question_id: "x2", text: "Something else entirely", score: 0.1, passed: false },
    ]);
    const result = await json<{
      matched_by: string;
      counts: { shared: number };
      incomparable: { code: string }[];
    }>(alice.token, `/api/v1/evaluations/compare?base=${base.id}&head=${other.id}`);
    expect(result).toMatchObject({ matched_by: "question_text", counts: { shared: 1 } });
    // Different sets: the scores are not comparable, and the answer says why.
    expect(result.incomparable.map((reason) => reason.code)).toContain("question_set");

    const bobs = await seedRun(bob.id, null, "bob's", BASE_ROWS);
    for (const query of [`base=${base.id}&head=${bobs.id}`, `base=${bobs.id}&head=${base.id}`]) {
      expect(
        (await request(alice.token, `/api/v1/evaluations/compare?${query}`)).status,
        query,
      ).toBe(404);
    }
    expect((await request(alice.token, `/api/v1/evaluations/compare?base=${base.id}`)).status).toBe(
      400,
    );
  });

  it("serves a run's chart data: radar, histogram and question types", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const run = await seedRun(alice.id, null, "base", BASE_ROWS);
    type Charts = {
      radar: Array<{ judge: string; dimension: string; mean: number; value: number }>;
      histogram: {
        bins: Array<{ from: number; count: number }>;
        count: number;
        not_scored: number;
      };
      by_question_type: Array<{ question_type: string; total: number; scored: number }>;
    };
    const charts = await json<Charts>(alice.token, `/api/v1/evaluations/${run.id}/charts`);
    expect(charts.radar.map((d) => [d.dimension, d.mean])).toEqual([
      ["accuracy", 7],
      ["completeness", 4],
      ["clarity", 7],
    ]);
    expect(charts.radar[1]?.value).toBeCloseTo(3 / 9);
    expect(charts.histogram.bins).toHaveLength(10);
    expect(charts.histogram.bins.filter((b) => b.count > 0).map((b) => [b.from, b.count])).toEqual([
      [0.2, 1],
      [0.8, 1],
      [0.9, 1],
    ]);
    expect(charts.histogram).toMatchObject({ count: 3, not_scored: 1 });
    expect(charts.by_question_type).toEqual([
      expect.objectContaining({ question_type: "FACTUAL", total: 3, scored: 2 }),
      expect.objectContaining({ question_type: "INFERENTIAL", total: 1, scored: 1 }),
    ]);
    expect((await request(bob.token, `/api/v1/evaluations/${run.id}/charts`)).status).toBe(404);
  });

  it("lists a question set's runs over time and the runs by status with pass rates", async () => {
    const alice = await user("alice");
    const bob = await user("bob");
    const set = await questionSet(alice.id, "metro");
    const first = await seedRun(alice.id, set.id, "first", BASE_ROWS);
    const second = await seedRun(alice.id, set.id, "second", BASE_ROWS.slice(0, 2));
    await seedRun(alice.id, null, "elsewhere", BASE_ROWS);
    type Trend = { items: Array<{ evaluation_id: string; pass_rate: number; scored: number }> };
    const trend = await json<Trend>(alice.token, `/api/v1/question-sets/${set.id}/trend`);
    expect(trend.items.map((p) => [p.evaluation_id, p.pass_rate, p.scored])).toEqual([
      [first.id, 2 / 3, 3],
      [second.id, 1, 2],
    ]);
    expect((await request(bob.token, `/api/v1/question-sets/${set.id}/trend`)).status).toBe(404);

    type List = { items: Array<{ name: string; pass_rate: number | null; status: string }> };
    const done = await json<List>(alice.token, "/api/v1/evaluations?status=completed");
    expect(done.items.map((e) => [e.name, e.pass_rate])).toEqual([
      ["elsewhere", 2 / 3],
      ["second", 1],
      ["first", 2 / 3],
    ]);
    const live = await json<List>(alice.token, "/api/v1/evaluations?status=RUNNING,PAUSED");
    expect(live.items).toEqual([]);
    expect((await request(alice.token, "/api/v1/evaluations?status=DONE")).status).toBe(400);
  });
});
