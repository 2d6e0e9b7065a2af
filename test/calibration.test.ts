import { expect, it } from "vitest";
import {
  CalibrationNotFoundError,
  calibrateEvaluation,
  importLabels,
  LabelImportError,
  nextToLabel,
  putLabel,
  runLabels,
} from "../src/evals/calibration/index.js";
import { retryEvaluation } from "../src/evals/runs/index.js";
import { createApp } from "../src/server/index.js";
import { createApiToken, findOrCreateUser, type User } from "../src/store/index.js";
import { describeEachStore } from "./support/stores.js";
import { type StoredItem, storeFinishedRun } from "./support/stored-run.js";

const ITEMS: StoredItem[] = [
  {
    question: "When did Line 1 open?",
    answer: "On 18 September 2009 [1].",
    judge: { raw: 9, passed: true },
  },
  {
    question: "How many buildings did the Great Fire destroy?",
    answer: "It destroyed 412 buildings.",
    judge: { raw: 8, passed: true },
  },
  {
    question: "Who founded the observatory?",
    answer: "Dr. Mei Han founded it in 1931 with Royal Society funds [1].",
    judge: { raw: 8.5, passed: true },
    sources: [{ node_id: "obs#0", content: "The observatory opened in 1931." }],
  },
  {
    question: "What is the population?",
    answer: "About a million.",
    judge: { raw: 6, passed: false },
  },
  {
    question: "Which river floods?",
    answer: "The sources do not say.",
    judge: { raw: 5, passed: false },
  },
  { question: "When was the university founded?", answer: "In 1952.", judge: "error" },
  { question: "How long is Line 2?", answer: "24 km.", judge: { raw: 7, passed: true } },
  {
    question: "Who designed the bridge?",
    answer: "Nobody knows.",
    judge: { raw: 3, passed: false },
  },
];

const LABELS = [
  { question: "When did Line 1 open?", human_score: 9 },
  { question: "how many buildings did the great fire destroy", human_score: 7, human_passed: true },
  { question: "Who founded the observatory?", human_score: 2, note: "the founder is invented" },
  { question: "What is the population?", human_score: 5, labelled_by: "Ana" },
  { question: "Which river floods?", human_score: 8 },
  { question: "When was the university founded?", human_score: 6 },
];

async function* lines(rows: readonly (object | string)[]): AsyncGenerator<string> {
  yield rows.map((row) => (typeof row === "string" ? row : JSON.stringify(row))).join("\n");
}

describeEachStore("human labels and calibration", (use) => {
  let user: User;
  const labeller = (u: User) => ({ workspaceId: u.id, userId: u.id, name: u.name });
  let other: User;
  const setup = async () => {
    const db = use().db;
    user = await findOrCreateUser(db, "alice");
    other = await findOrCreateUser(db, "mallory");
    return storeFinishedRun(db, user.id, ITEMS);
  };

  it("imports a label file matched by question, and calibrates the judge on it", async () => {
    const run = await setup();
    const db = use().db;
    const imported = await importLabels(db, labeller(user), run.id, lines(LABELS));
    // Six scores and one pass/fail label; human_score is on the rubric judge's 1-10 scale.
    expect(imported).toEqual({ lines: 6, written: 7, scale: "1-10" });
    const labels = await runLabels(db, user.id, run.id);
    expect(labels.map((l) => [l.position, l.scale, l.score, l.passed])).toEqual([
      [0, "1-10", 9, null],
      [1, "1-10", 7, null],
      [1, "pass_fail", null, true],
      [2, "1-10", 2, null],
      [3, "1-10", 5, null],
      [4, "1-10", 8, null],
      [5, "1-10", 6, null],
    ]);
    expect(labels.find((l) => l.position === 3)?.labelled_by).toBe("Ana");
    expect(labels.find((l) => l.position === 0)?.labelled_by).toBe("alice");

    const report = await calibrateEvaluation(db, user.id, run.id);
    expect(report.judge).toBe("rubric");
    // Judge (9, 8, 8.5, 6, 5) against people (9, 7, 2, 5, 8); the judge errored on item 5.
    expect(report.items).toEqual({
      judged: 7,
      labelled_scores: 5,
      labelled_pass: 5,
      skipped_judge_errors: 1,
    });
    expect(report.agreement?.mae).toBeCloseTo((0 + 1 + 6.5 + 1 + 3) / 5, 12);
    expect(report.agreement?.within_1).toBe(0.6);
    // People's pass: 9 ≥ 7, the pass label, 2, 5, 8 ≥ 7 → P P F F P; the judge: P P P F F.
    expect(report.pass_fail).toMatchObject({ tp: 2, fp: 1, tn: 1, fn: 1 });
    expect(report.pass_rate.judge).toMatchObject({ estimate: 4 / 7, n: 7 });
    expect(report.pass_rate.human).toMatchObject({ estimate: 3 / 5, n: 5 });
    expect(report.pass_rate.ppi).toMatchObject({ n: 5, N: 2 });
    expect(report.verdict.passed).toBe(false);
    expect(report.disagreements[0]).toMatchObject({
      position: 2,
      difference: 6.5,
      note: "the founder is invented",
    });
  });

  it("names every bad line and field, and writes nothing", async () => {
    const run = await setup();
    const db = use().db;
    const bad = [
      { question: "When did Line 1 open?", human_score: 9 },
      '{"question": "When did Line 1 open?"',
      { question: "Who built the moon?", human_score: 3 },
      { question: "What is the population?", human_score: 11 },
      { question: "Which river floods?" },
      { question: "When did line 1 open", human_score: 8 },
      { question: "How many buildings did the Great Fire destroy?", human_passed: "yes" },
      { question: "Who founded the observatory?", human_score: 2, note: "a\u0000b" },
    ];
    const error = await importLabels(db, labeller(user), run.id, lines(bad)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LabelImportError);
    expect((error as LabelImportError).issues.map((i) => [i.line, i.field])).toEqual([
      [2, "(line)"],
      [3, "question"],
      [4, "human_score"],
      [5, "human_score"],
      [6, "question"],
      [7, "human_passed"],
      [8, "note"],
    ]);
    expect((error as LabelImportError).message).toContain(
      "line 6: question: already labelled on line 1",
    );
    expect((error as LabelImportError).message).toContain(
      "line 4: human_score: a whole number from 1 to 10",
    );
    expect(await runLabels(db, user.id, run.id)).toEqual([]);
  });

  it("keeps labels through a retry of the run, and replaces a label on re-import", async () => {
    const run = await setup();
    const db = use().db;
    await importLabels(db, labeller(user), run.id, lines(LABELS.slice(0, 2)));
    await importLabels(db, labeller(user), run.id, lines([{ ...LABELS[0], human_score: 8 }]));
    const jobs = { send: async () => {} };
    await retryEvaluation({ db, jobs }, user.id, run.id, "all");
    const labels = await runLabels(db, user.id, run.id, "1-10");
    expect(labels.map((l) => [l.position, l.score])).toEqual([
      [0, 8],
      [1, 7],
    ]);
  });

  it("treats another user's evaluation and results as missing", async () => {
    const run = await setup();
    const db = use().db;
    const mine = await storeFinishedRun(db, other.id, ITEMS.slice(0, 2));
    const foreign = (work: Promise<unknown>) =>
      expect(work).rejects.toBeInstanceOf(CalibrationNotFoundError);
    await foreign(importLabels(db, labeller(other), run.id, lines(LABELS)));
    await foreign(runLabels(db, other.id, run.id));
    await foreign(calibrateEvaluation(db, other.id, run.id));
    await foreign(nextToLabel(db, other.id, run.id, "1-10"));
    // Alice's result id under Mallory's own evaluation is not found either.
    const [aliceResult] = await nextToLabel(db, user.id, run.id, "1-10").then((n) => [n.result]);
    await foreign(
      putLabel(db, labeller(other), mine.id, aliceResult?.id ?? "", "1-10", { score: 3 }),
    );
    expect(await runLabels(db, user.id, run.id)).toEqual([]);
  });

  it("holds the judges' verdicts back from the labelling view until the result is labelled", async () => {
    const run = await setup();
    const db = use().db;
    const app = createApp({ db });
    const token = await createApiToken(db, user.id);
    const otherToken = await createApiToken(db, other.id);
    const call = (path: string, init: RequestInit = {}, as = token) =>
      app.request(`/api/v1/evaluations/${run.id}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${as}`, "content-type": "application/json" },
      });
    type Item = {
      scale: string;
      scales: string[];
      index: number;
      total: number;
      labelled: number;
      unlabelled: number;
      previous_id: string | null;
      next_id: string | null;
      result: { id: string; position: number; sources: unknown[] | null };
      label: { score: number } | null;
      judges: { name: string; scale: string | null; result: { raw_score: number } }[] | null;
    };
    // No scale asked: the run's rubric judge's 1-10.
    const next = (await (await call("/labels/next")).json()) as { scale: string; scales: string[] };
    expect(next).toMatchObject({
      evaluation: { id: run.id, name: run.name, judges: ["rubric"] },
      scale: "1-10",
      scales: ["1-10", "pass_fail"],
    });

    const labels = await runLabels(db, user.id, run.id);
    expect(labels).toEqual([]);
    const first = await nextToLabel(db, user.id, run.id, "1-10", 1);
    const id = first.result?.id ?? "";
    expect(first.result?.position).toBe(2);
    const blind = (await (await call(`/labels/items/${id}`)).json()) as Item;
    expect(blind).toMatchObject({
      scale: "1-10",
      index: 3,
      total: 7,
      labelled: 0,
      unlabelled: 7,
      label: null,
      judges: null,
      result: { position: 2, sources: [{ node_id: "obs#0" }] },
    });
    expect(JSON.stringify(blind)).not.toContain("raw_score");
    expect(blind.previous_id).not.toBeNull();
    expect(blind.next_id).not.toBeNull();

    await call(`/results/${id}/labels/1-10`, { method: "PUT", body: JSON.stringify({ score: 2 }) });
    const shown = (await (await call(`/labels/items/${id}?scale=1-10`)).json()) as Item;
    expect(shown).toMatchObject({ labelled: 1, unlabelled: 6, label: { score: 2 } });
    expect(shown.judges).toEqual([
      expect.objectContaining({
        name: "rubric",
        scale: "1-10",
        result: expect.objectContaining({ raw_score: 8.5 }),
      }),
    ]);
    // A label on 1-10 does not reveal the verdict to someone labelling pass/fail.
    const passFail = (await (await call(`/labels/items/${id}?scale=pass_fail`)).json()) as Item;
    expect(passFail).toMatchObject({ scale: "pass_fail", label: null, judges: null });

    // The neighbours skip the judge error at position 5; the last has no next.
    const at3 = (await (await call(`/labels/items/${shown.next_id}`)).json()) as Item;
    expect(at3.result.position).toBe(3);
    const at4 = (await (await call(`/labels/items/${at3.next_id}`)).json()) as Item;
    const last = (await (await call(`/labels/items/${at4.next_id}`)).json()) as Item;
    expect(last.result.position).toBe(6);
    const end = (await (await call(`/labels/items/${last.next_id}`)).json()) as Item;
    expect(end).toMatchObject({ index: 7, next_id: null, result: { position: 7 } });

    expect((await call(`/labels/items/${id}`, {}, otherToken)).status).toBe(404);
    expect((await call("/labels/next", {}, otherToken)).status).toBe(404);
    expect((await call(`/labels/items/${id}?scale=1-7`)).status).toBe(400);
  });

  it("serves the labelling view over the API: next item, put, get, delete, calibration", async () => {
    const run = await setup();
    const db = use().db;
    const app = createApp({ db });
    const token = await createApiToken(db, user.id);
    const otherToken = await createApiToken(db, other.id);
    const call = (path: string, init: RequestInit = {}, as = token) =>
      app.request(`/api/v1/evaluations/${run.id}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${as}`, "content-type": "application/json" },
      });

    const next = await call("/labels/next?scale=1-10");
    expect(next.status).toBe(200);
    const first = (await next.json()) as {
      labelled: number;
      unlabelled: number;
      result: Record<string, unknown>;
    };
    // Seven SCORED results (the judge error is not offered); the verdict is hidden.
    expect(first).toMatchObject({ labelled: 0, unlabelled: 7, result: { position: 0 } });
    expect(first.result).not.toHaveProperty("judges");
    expect(first.result).not.toHaveProperty("score");
    const resultId = String(first.result.id);

    const bad = await call(`/results/${resultId}/labels/1-10`, {
      method: "PUT",
      body: JSON.stringify({ score: 12 }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ issues: [{ path: "score" }] });
    const put = await call(`/results/${resultId}/labels/1-10`, {
      method: "PUT",
      body: JSON.stringify({ score: 9, note: "exact date" }),
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ score: 9, note: "exact date", labelled_by: "alice" });
    const then = (await (await call("/labels/next?scale=1-10")).json()) as typeof first;
    expect(then).toMatchObject({ labelled: 1, unlabelled: 6, result: { position: 1 } });

    const got = (await (await call(`/results/${resultId}/labels`)).json()) as { items: unknown[] };
    expect(got.items).toHaveLength(1);
    expect((await call(`/results/${resultId}/labels`, {}, otherToken)).status).toBe(404);
    expect(
      (
        await call(
          `/results/${resultId}/labels/1-10`,
          { method: "PUT", body: JSON.stringify({ score: 1 }) },
          otherToken,
        )
      ).status,
    ).toBe(404);
    expect((await call("/calibration", {}, otherToken)).status).toBe(404);

    const imported = await call("/labels/import", {
      method: "POST",
      body: JSON.stringify({ content: '{"question": "nope", "human_score": 3}\n' }),
    });
    expect(imported.status).toBe(400);
    expect(await imported.json()).toMatchObject({
      lines: [{ line: 1, field: "question" }],
    });

    const calibration = await call("/calibration?judge=rubric&target=0.5");
    expect(calibration.status).toBe(200);
    expect(await calibration.json()).toMatchObject({
      judge: "rubric",
      options: { target: 0.5 },
      items: { labelled_scores: 1 },
      pass_rate: { judge: { n: 7 } },
    });
    expect((await call("/calibration?judge=reference")).status).toBe(400);

    const openapi = (await (await app.request("/api/v1/openapi.json")).json()) as { paths: object };
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/evaluations/{id}/labels/next",
        "/api/v1/evaluations/{id}/results/{resultId}/labels/{scale}",
        "/api/v1/evaluations/{id}/calibration",
      ]),
    );

    expect((await call(`/results/${resultId}/labels/1-10`, { method: "DELETE" })).status).toBe(204);
    expect((await call(`/results/${resultId}/labels/1-10`, { method: "DELETE" })).status).toBe(404);
  });
});
