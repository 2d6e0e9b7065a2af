// The agreement measures on hand-computed cases, then the offline judges on the held-out test sets
// of ./fixtures: a quality regression guard (the level measured when the judge was built, less a
// small margin), not a timing test.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  agreementOf,
  kendallTauB,
  type LabelledAnswer,
  LabelledAnswerSchema,
  LabelledAttributionSchema,
  readLabelled,
  rocAuc,
} from "./agreement.js";
import { offline } from "./index.js";

const fixtures = new URL("./fixtures/", import.meta.url);

describe("kendallTauB", () => {
  it("counts concordant and discordant pairs, correcting for ties", () => {
    // Pairs: (1,2) and (1,3) concordant, (2,3) discordant: (2 - 1) / 3.
    expect(kendallTauB([1, 2, 3], [1, 3, 2])).toBeCloseTo(1 / 3, 12);
    // x ties once: (2 - 0) / sqrt((3 - 1) × 3).
    expect(kendallTauB([1, 1, 2], [1, 2, 3])).toBeCloseTo(2 / Math.sqrt(6), 12);
    expect(kendallTauB([1, 2], [5, 5])).toBe(0);
  });
});

describe("rocAuc", () => {
  it("is the share of positive-negative pairs ranked right, ties half", () => {
    // Positives 0.9, 0.7; negatives 0.8, 0.6: three of four pairs in order.
    expect(rocAuc([0.9, 0.8, 0.7, 0.6], [true, false, true, false])).toBe(0.75);
    expect(rocAuc([0.5, 0.5], [true, false])).toBe(0.5);
    expect(() => rocAuc([1], [true])).toThrow("both labels");
  });
});

describe("agreementOf", () => {
  const item = (id: string, system: string, human: boolean): LabelledAnswer => ({
    id,
    lang: "en",
    question: "Q?",
    ground_truths: ["A"],
    system,
    answer: "A",
    human_correct: human,
  });
  const items = [
    item("1", "a", true),
    item("2", "a", true),
    item("3", "b", false),
    item("4", "b", false),
  ];

  it("reports agreement, κ, the errors by kind and each system's pass rates", () => {
    const report = agreementOf(items, [true, false, false, true]);
    expect(report).toMatchObject({
      n: 4,
      agreement: 0.5,
      kappa: 0,
      false_fail: 1,
      false_pass: 1,
      ranking_tau: 0,
      ranked_as_people: false,
      disagreements: ["2", "4"],
    });
    expect(report.systems).toEqual([
      { system: "a", n: 2, human_pass_rate: 1, judge_pass_rate: 0.5 },
      { system: "b", n: 2, human_pass_rate: 0, judge_pass_rate: 0.5 },
    ]);
  });

  it("says when the judge ranks the systems as people do", () => {
    const report = agreementOf(items, [true, false, false, false]);
    expect(report.ranked_as_people).toBe(true);
    expect(report.judge_ranking).toEqual(["a", "b"]);
    expect(report.kappa).toBeCloseTo(0.5, 12);
  });
});

describe("readLabelled", () => {
  it("names the line and field of a bad row", () => {
    const file = join(mkdtempSync(join(tmpdir(), "labelled-")), "bad.jsonl");
    writeFileSync(
      file,
      `${JSON.stringify({ id: "x", lang: "en", question: "Q", ground_truths: ["A"], system: "s", answer: "A", human_correct: true })}\n{"id":"y"}\n`,
    );
    expect(() => readLabelled(file, LabelledAnswerSchema)).toThrow(/line 2: lang/);
  });
});

describe("the offline judges on the held-out test sets (regression guard)", () => {
  it("agree with people on at least 95% of the answers and rank the systems as they do", () => {
    const items = readLabelled(new URL("agreement-test.jsonl", fixtures), LabelledAnswerSchema);
    const judged = items.map(
      (item) =>
        offline({ question: item.question, answer: item.answer, ground_truths: item.ground_truths })
          .passed,
    );
    const report = agreementOf(items, judged);
    // Measured 0.99 (119 of 120) when the judge was built.
    expect(report.agreement).toBeGreaterThanOrEqual(0.95);
    expect(report.ranked_as_people).toBe(true);
  });

  const groundednessAuc = (split: "dev" | "test") => {
    const items = readLabelled(
      new URL(`attribution-${split}.jsonl`, fixtures),
      LabelledAttributionSchema,
    );
    const scores = items.map(
      (item) =>
        offline({ question: "?", answer: item.answer, contexts: item.contexts }).verdict
          .groundedness ?? 0,
    );
    return rocAuc(
      scores,
      items.map((item) => item.human_supported),
    );
  };

  it("separate supported from unsupported answers with a groundedness AUC of at least 0.95", () => {
    // Measured 0.989 with number attachment and the weakest sentence (0.961 before them).
    expect(groundednessAuc("test")).toBeGreaterThanOrEqual(0.95);
  });

  it("keep the development set's groundedness AUC at least 0.92", () => {
    // Measured 0.944 (0.857 before number attachment and the weakest sentence).
    expect(groundednessAuc("dev")).toBeGreaterThanOrEqual(0.92);
  });
});
