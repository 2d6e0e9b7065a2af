import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { loadConfig } from "../src/config/index.js";
import type { CalibrationReport } from "../src/evals/calibration/index.js";
import type { EvaluationReport } from "../src/evals/reports/index.js";
import { runCli } from "./support/cli.js";
import { createDatabase } from "./support/postgres-server.js";
import { tempDir } from "./support/temp-dir.js";

const CORPUS = fileURLToPath(new URL("../examples/corpus/", import.meta.url));
const QUESTIONS = fileURLToPath(
  new URL("../examples/eval/lanting-questions.jsonl", import.meta.url),
);

const dir = tempDir("calibrate-cli");
// On a PostgreSQL server: calibration is what these tests check, not the store, and each of the
// dozen CLI runs then skips starting embedded PGlite (~1.3 s of CPU each). eval-cli.test.ts
// covers the embedded home.
const env: Record<string, string> = { RAGJUDGE_HOME: join(dir, "home") };
const run = (args: string[]) => runCli(args, { env, cwd: dir });
const jsonl = (name: string, rows: object[]) => {
  const path = join(dir, name);
  writeFileSync(path, rows.map((row) => JSON.stringify(row)).join("\n") + "\n");
  return path;
};

// Each test runs the real CLI 2-4 times, a few seconds each on a busy machine.
describe(
  "ragjudge label import and calibrate, end to end on a stored run",
  { timeout: 180_000 },
  () => {
    let evaluationId: string;
    let results: EvaluationReport["results"];

    beforeAll(async () => {
      env.DATABASE_URL = await createDatabase(inject("postgresUrl"), "calibrate");
      // The first 8 bundled questions, answered by the built-in bot and judged offline.
      const questions = readFileSync(QUESTIONS, "utf8").split("\n").filter(Boolean).slice(0, 8);
      const file = join(dir, "questions.jsonl");
      writeFileSync(file, questions.join("\n") + "\n");
      const evaluated = await run([
        "eval",
        "--collection",
        "lanting",
        "--docs",
        CORPUS,
        "--questions",
        file,
        "--format",
        "json",
      ]);
      expect(evaluated.code).toBe(0);
      const report = JSON.parse(evaluated.stdout) as EvaluationReport;
      evaluationId = report.evaluation.id;
      results = report.results;
      expect(results.filter((r) => r.status === "SCORED")).toHaveLength(8);
    }, 300_000);

    it("names every bad line of a label file and imports nothing (exit 2)", async () => {
      const bad = jsonl("bad.jsonl", [
        { question: results[0]?.question, human_score: 8 },
        { question: "A question nobody asked", human_score: 5 },
        { question: results[1]?.question, human_score: 0 },
      ]);
      const imported = await run(["label", "import", "--evaluation", evaluationId, bad]);
      expect(imported.code).toBe(2);
      expect(imported.stderr).toContain("2 bad lines; nothing was imported");
      expect(imported.stderr).toContain(
        'line 2: question: no result of this evaluation asks "A question nobody asked"',
      );
      expect(imported.stderr).toContain("line 3: human_score: a whole number from 1 to 10");
      const calibrated = await run(["calibrate", "--evaluation", evaluationId, "--format", "json"]);
      const report = JSON.parse(calibrated.stdout) as CalibrationReport;
      expect(report.items.labelled_scores).toBe(0);
      expect(report.verdict.failed[0]).toMatch(/no judged result has a human label/);
      expect(calibrated.code).toBe(1);
    });

    it("calibrates the offline judge on people's scores and fails a judge that does not track them", async () => {
      // People disagree with the judge by 4 points on every answer: a judge this far off must fail.
      const judged = results.map((r) => r.judges.offline?.raw_score ?? 5);
      const labels = jsonl(
        "labels.jsonl",
        results.map((r, i) => ({
          question: r.question,
          human_score:
            (judged[i] ?? 5) >= 5.5
              ? Math.round((judged[i] ?? 5) - 4)
              : Math.round((judged[i] ?? 5) + 4),
          ...(i === 0 ? { note: "the answer misses the point" } : {}),
        })),
      );
      const imported = await run(["label", "import", "--evaluation", evaluationId, labels]);
      expect(imported.stdout).toContain("Imported 8 labels from 8 lines");
      expect(imported.code).toBe(0);

      const calibrated = await run(["calibrate", "--evaluation", evaluationId, "--format", "json"]);
      expect(calibrated.code).toBe(1);
      const report = JSON.parse(calibrated.stdout) as CalibrationReport;
      expect(report).toMatchObject({
        judge: "offline",
        scale: "1-10",
        items: { labelled_scores: 8 },
      });
      expect(report.agreement?.within_1).toBe(0);
      expect(report.agreement?.mae).toBeGreaterThan(3.4);
      expect(Object.keys(report.pass_rate)).toEqual(["judge", "human", "ppi"]);
      expect(report.pass_rate.judge?.n).toBe(8);
      expect(report.verdict.failed[0]).toMatch(/share within ±1 is 0\.000, target 0\.9/);
      expect(calibrated.stderr).toContain("FAILED: share within ±1");
      expect(report.disagreements).toHaveLength(8);

      const table = await run(["calibrate", "--evaluation", evaluationId]);
      expect(table.code).toBe(1);
      expect(table.stdout).toContain("Golden-set verdict: FAIL (on scores)");
      expect(table.stdout).toMatch(/constant baseline \(always \d+\)/);
      expect(table.stdout).toContain("prediction-powered (PPI++)");
      expect(table.stdout).toContain(
        "warning: Only 8 labelled results: the intervals are wide and a few more labels can change the verdict (label at least 30).",
      );

      // --lang zh words the warnings in Chinese, from the same codes the web app words.
      const chinese = await run(["calibrate", "--evaluation", evaluationId, "--lang", "zh"]);
      expect(chinese.code).toBe(1);
      expect(chinese.stdout).toContain(
        "警告：只有 8 个已标注结果：区间很宽，再多几个标注就可能改变结论（至少标注 30 个）。",
      );
      expect(chinese.stdout).not.toContain("warning: Only 8");
      // …and the table's headings and labels; the figures and PASS / FAIL stay.
      expect(chinese.stdout).toContain("offline 评判在");
      expect(chinese.stdout).toContain("黄金集结论：FAIL（依据得分）");
      expect(chinese.stdout).toMatch(/常数基线（总是 \d+）/);
      expect(chinese.stdout).toContain("预测增强（PPI++）");
      expect(chinese.stdout).toContain("分歧最大的结果（请先复核这些）：");
      expect(chinese.stdout).toMatch(/通过率\s+估计值\s+95% 置信区间\s+依据/);
      for (const english of ["Calibration of", "judge only", "prediction-powered", "Largest"])
        expect(chinese.stdout).not.toContain(english);
      const refused = await run(["calibrate", "--evaluation", evaluationId, "--lang", "fr"]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--lang: expected en or zh, got "fr"');
    });

    it("passes a judge that people agree with (exit 0)", async () => {
      // People give the judge's own score, rounded; the run's scores vary, so the constant loses.
      const labels = jsonl(
        "agree.jsonl",
        results.map((r) => ({
          question: r.question,
          human_score: Math.round(r.judges.offline?.raw_score ?? 5),
        })),
      );
      expect((await run(["label", "import", "--evaluation", evaluationId, labels])).code).toBe(0);
      const calibrated = await run(["calibrate", "--evaluation", evaluationId, "--format", "json"]);
      const report = JSON.parse(calibrated.stdout) as CalibrationReport;
      expect(report.agreement?.within_1).toBe(1);
      expect(report.agreement?.kappa_quadratic).toBe(1);
      expect(report.verdict).toMatchObject({ passed: true, failed: [] });
      expect(calibrated.code).toBe(0);

      // The labels are exported with the results.
      const csv = await run(["eval", "--resume", evaluationId, "--format", "csv"]);
      expect(csv.code).toBe(0);
      const [header, first] = csv.stdout.split("\n");
      expect(header).toContain("human_score_1-10");
      expect(first).toContain(String(Math.round(results[0]?.judges.offline?.raw_score ?? 5)));
    });

    it("writes person-scored few-shot examples into judges.rubric.fewshot", async () => {
      const dry = await run([
        "calibrate",
        "--evaluation",
        evaluationId,
        "--suggest-fewshot",
        "--dry-run",
      ]);
      expect(dry.code).toBe(0);
      expect(dry.stdout).toMatch(/\/10 \(/);
      expect((await loadConfig({ cwd: dir, env: {} })).judges.rubric.fewshot).toEqual([]);

      const written = await run([
        "calibrate",
        "--evaluation",
        evaluationId,
        "--suggest-fewshot",
        "--count",
        "2",
      ]);
      expect(written.code).toBe(0);
      expect(written.stderr).toContain("Wrote 2 examples to judges.rubric.fewshot");
      const fewshot = (await loadConfig({ cwd: dir, env: {} })).judges.rubric.fewshot;
      expect(fewshot).toHaveLength(2);
      const byQuestion = new Map(results.map((r) => [r.question, r]));
      for (const example of fewshot) {
        expect(byQuestion.get(example.question)?.answer).toBe(example.answer);
      }
    });
  },
);
