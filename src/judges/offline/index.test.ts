// The offline judge's result shape, and examples/judges/offline-cases.jsonl: seed 002's three unit
// cases (a perfect answer: accuracy > 9; a severe hallucination: < 3; an honest "don't know": > 8)
// in English and Chinese, plus a few neighbours, on chunks of the fictional corpus in
// examples/corpus.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JudgesConfigSchema } from "../config.js";
import { JudgeInputError } from "../errors.js";
import { summarizeJudgeResults } from "../summary.js";
import { wordMessage } from "../../text/index.js";
import { OFFLINE_MODEL, offline, offlineJudge, REFERENCE_LIMIT } from "./index.js";

const examples = join(import.meta.dirname, "..", "..", "..", "examples");

interface OfflineCase {
  id: string;
  seed_case?: "perfect" | "hallucination" | "dont_know";
  question: string;
  answer: string;
  contexts: { node_id: string; content: string }[];
  ground_truth?: string;
  expected: {
    accuracy_above?: number;
    accuracy_below?: number;
    completeness_below?: number;
  };
  why: string;
}

function loadCases(): OfflineCase[] {
  return readFileSync(join(examples, "judges", "offline-cases.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as OfflineCase);
}

/** node_id "slug#n" -> paragraph n (1-based, headings excluded) of examples/corpus/slug.md. */
function loadCorpusChunks(): Map<string, string> {
  const chunks = new Map<string, string>();
  const dir = join(examples, "corpus");
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".md"))) {
    const paragraphs = readFileSync(join(dir, file), "utf8")
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter((p) => p !== "" && !p.startsWith("#"));
    for (const [i, p] of paragraphs.entries()) {
      chunks.set(`${file.replace(/\.md$/, "")}#${i + 1}`, p);
    }
  }
  return chunks;
}

const cases = loadCases();

describe("examples/judges/offline-cases.jsonl", () => {
  it("covers seed 002's three cases in both languages, on verbatim corpus chunks", () => {
    const seeded = new Set(
      cases.filter((c) => c.seed_case).map((c) => `${c.id.slice(0, 2)}:${c.seed_case}`),
    );
    for (const language of ["en", "zh"]) {
      for (const seedCase of ["perfect", "hallucination", "dont_know"]) {
        expect(seeded.has(`${language}:${seedCase}`), `${language} ${seedCase}`).toBe(true);
      }
    }
    const chunks = loadCorpusChunks();
    for (const c of cases) {
      for (const context of c.contexts) {
        expect(chunks.get(context.node_id), `${c.id} ${context.node_id}`).toBe(context.content);
      }
    }
  });

  for (const c of cases) {
    it(`${c.id}: ${JSON.stringify(c.expected)}`, () => {
      const result = offline(c);
      const { accuracy, completeness } = result.verdict.metrics;
      const { accuracy_above, accuracy_below, completeness_below } = c.expected;
      const detail = `${c.why}\n${result.verdict.reason}\n${result.verdict.analysis}`;
      if (accuracy_above !== undefined) expect(accuracy, detail).toBeGreaterThan(accuracy_above);
      if (accuracy_below !== undefined) expect(accuracy, detail).toBeLessThan(accuracy_below);
      if (completeness_below !== undefined) {
        expect(completeness, detail).toBeLessThan(completeness_below);
      }
    });
  }

  it("holds seed 002's cases without the ground truth too, from the contexts alone", () => {
    for (const c of cases.filter((each) => each.seed_case)) {
      const { ground_truth: _, ...input } = c;
      const { accuracy } = offline(input).verdict.metrics;
      if (c.expected.accuracy_above !== undefined) {
        expect(accuracy, c.id).toBeGreaterThan(c.expected.accuracy_above);
      }
      if (c.expected.accuracy_below !== undefined) {
        expect(accuracy, c.id).toBeLessThan(c.expected.accuracy_below);
      }
    }
  });
});

describe("offline", () => {
  const founding = cases.find((c) => c.id === "en-perfect-founding") as OfflineCase;

  it("returns the LLM judges' result shape", () => {
    const result = offline(founding);
    expect(result).toMatchObject({
      name: "offline",
      outcome: "ok",
      passed: true,
      language: "en",
      model: OFFLINE_MODEL,
      calls: [],
    });
    expect(result.raw_score).toBe(result.verdict.metrics.weighted_score);
    expect(result.score).toBeCloseTo((result.raw_score - 1) / 9, 4);
    const { verdict } = result;
    expect(verdict.heuristic).toBe(true);
    expect(verdict.reason).toMatch(/^Heuristic \(no LLM\): /);
    expect(verdict.is_passing).toBe(true);
    expect(verdict.exact_match).toBe(0);
    // 23 answer tokens (the marker is "lantinghistory1", as in the official script) against 9;
    // shared: in, 1784, by, salt, merchants, led, wei, chenghai. F1 = 2 × 8 / (23 + 9); the LCS
    // is the same 8 in order.
    expect(verdict.details.f1?.recall).toBeCloseTo(8 / 9, 10);
    expect(verdict.f1).toBeCloseTo(16 / 32, 4);
    expect(verdict.rouge_l).toBeCloseTo(16 / 32, 4);
    expect(verdict.groundedness).toBeGreaterThan(0.8);
  });

  it("reports null for measures it cannot compute", () => {
    const result = offline({ question: "When was Lanting founded?", answer: "In 1784." });
    expect(result.verdict).toMatchObject({
      exact_match: null,
      f1: null,
      rouge_l: null,
      groundedness: null,
      basis: "none",
    });
    expect(result.verdict.metrics.accuracy).toBe(3);
  });

  it("treats a blank ground truth as none", () => {
    const { ground_truth: _, ...input } = founding;
    expect(offline({ ...founding, ground_truth: "  " })).toEqual(offline(input));
  });

  it("accepts contexts as strings or retrieval hits, and detects Chinese", () => {
    const zh = cases.find((c) => c.id === "zh-perfect-university") as OfflineCase;
    const asHits = offline(zh);
    const asStrings = offline({ ...zh, contexts: zh.contexts.map((c) => c.content) });
    expect(asStrings.verdict).toEqual(asHits.verdict);
    expect(asHits.language).toBe("zh");
    expect(offline(zh, { language: "en" }).language).toBe("en");
  });

  it("rejects invalid input naming the field", () => {
    expect(() => offline({ question: " ", answer: "x" })).toThrow(JudgeInputError);
    try {
      offline({ question: "q", answer: "a", contexts: [42 as unknown as string] });
      expect.unreachable();
    } catch (error) {
      expect(JudgeInputError.isInstance(error) && error.field).toBe("contexts.0");
    }
  });

  it("uses the judges config's weights and pass threshold", () => {
    const config = JudgesConfigSchema.parse({
      rubric: { weights: { accuracy: 1, completeness: 0, clarity: 0 }, pass_min_accuracy: 10 },
    });
    const result = offline(founding, { config });
    expect(result.raw_score).toBe(result.verdict.metrics.accuracy);
    expect(result.passed).toBe(result.verdict.metrics.accuracy >= 10);
  });

  it("is deterministic, and summarizes like any judge", () => {
    const results = cases.map((c) => offline(c));
    expect(cases.map((c) => offline(c))).toEqual(results);
    const summary = summarizeJudgeResults(results);
    expect(summary.counted).toBe(cases.length);
    expect(summary.judge_errors).toBe(0);
  });
});

describe("offlineJudge", () => {
  it("takes the LLM judges' single options object and returns a promise", async () => {
    const founding = cases[0] as OfflineCase;
    const result = await offlineJudge({ ...founding, seed: 7 });
    expect(result).toEqual(offline(founding));
  });

  it("honours an aborted signal", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      offlineJudge({ question: "q", answer: "a", signal: controller.signal }),
    ).rejects.toThrow();
  });
});

describe("offline against several references", () => {
  it("scores against the best-matching reference, each metric at its maximum (SQuAD)", () => {
    const result = offline({
      question: "Which team won Super Bowl 50?",
      answer: "The Broncos.",
      ground_truth: "Denver Broncos",
      ground_truths: ["The Broncos", "Broncos"],
    });
    expect(result.verdict).toMatchObject({
      reference_verdict: "correct",
      exact_match: 1,
      f1: 1,
      abstained: false,
    });
    expect(result.passed).toBe(true);
    expect(result.verdict.details.reference?.reference_index).toBe(1);
  });

  it("passes a long correct answer and fails a contradicting one", () => {
    const question = "In what year did the Great Fire destroy much of Lower Quay Street?";
    const verbose = offline({
      question,
      answer:
        "The Great Fire broke out on the night of 14 October 1869 in a rope store on Lower Quay Street and burned for two days, destroying 412 buildings. In response the council passed the Brick Ordinance of 1870.",
      ground_truths: ["1869"],
    });
    expect(verbose.passed).toBe(true);
    expect(verbose.verdict.metrics.accuracy).toBe(10);
    const wrong = offline({ question, answer: "It happened in 1870.", ground_truths: ["1869"] });
    expect(wrong.passed).toBe(false);
    expect(wrong.verdict.reference_verdict).toBe("contradicted");
    expect(wrong.verdict.reason).toContain("1870 where the reference says 1869");
  });

  it("treats blank references as none", () => {
    const result = offline({ question: "Q?", answer: "An answer.", ground_truths: [" ", ""] });
    expect(result.verdict.reference_verdict).toBeNull();
    expect(result.verdict.basis).toBe("none");
  });
});

describe("offline on an abstaining answer", () => {
  it("says so with a flag and a verdict, and keeps every score a number", () => {
    const result = offline({
      question: "When did Line 1 of the Lanting Metro open?",
      answer: "I'm not sure; the information I have does not give the opening date.",
      ground_truths: ["18 September 2009"],
    });
    expect(result.verdict.abstained).toBe(true);
    expect(result.verdict.reference_verdict).toBe("abstained");
    expect(result.passed).toBe(false);
    for (const value of Object.values(result.verdict.metrics)) expect(typeof value).toBe("number");
    expect(typeof result.score).toBe("number");
  });

  it("flags it without a reference too", () => {
    const result = offline({ question: "Who was mayor?", answer: "I don't know." });
    expect(result.verdict).toMatchObject({ abstained: true, reference_verdict: null });
  });
});

describe("offline limits", () => {
  it("says, with a reference, where the verdict stays below a named baseline on public data", () => {
    const judged = offline({ question: "Who?", answer: "David Seville", ground_truth: "Seville" });
    expect(judged.verdict.limits).toEqual([REFERENCE_LIMIT]);
    expect(REFERENCE_LIMIT).toContain("the contains-the-reference judge (91.0%)");
    // The same limit as a code, worded in Chinese for a reader who reads Chinese.
    expect(judged.verdict.limits_messages.map((m) => m.message)).toEqual([REFERENCE_LIMIT]);
    expect(wordMessage(judged.verdict.limits_messages[0]!, "zh")).toMatch(
      /^对照参考答案时，该评判在未用于调参的公开 TriviaQA 回答上与人工判断的一致率为 96\.0%，高于“包含参考答案”评判（91\.0%）/,
    );
    expect(offline({ question: "Who?", answer: "A", contexts: ["A"] }).verdict.limits).toEqual([]);
  });
});

describe("the offline judge's reason in the reader's language", () => {
  it("sends its reason and suggestion as codes beside the English words", () => {
    const { verdict } = offline({
      question: "In what year was the fire?",
      answer: "The Great Fire happened in 1870.",
      ground_truth: "1869",
    });
    expect(verdict.reason).toBe(
      "Heuristic (no LLM): contradicts the reference: 1870 where the reference says 1869.",
    );
    expect(verdict.reason_message).toEqual({
      code: "offline.reason",
      params: {
        notes: [
          {
            code: "offline.note.contradicts",
            params: {
              which: "",
              contradictions: [
                {
                  code: "offline.conflict.other_value",
                  params: { answer: "1870", reference: "1869" },
                },
              ],
            },
          },
        ],
      },
      message: verdict.reason,
    });
    expect(wordMessage(verdict.reason_message, "zh")).toBe(
      "启发式评判（未用 LLM）：与参考答案矛盾：回答说 1870，而参考答案说 1869。",
    );
    expect(verdict.suggestion_message.message).toBe(verdict.suggestion);
    // The analysis: its signals as clauses, the same English as before codes, and in Chinese.
    expect(verdict.analysis_message.message).toBe(verdict.analysis);
    expect(verdict.analysis).toMatch(/^abstention none; .*F1 0; .*sub-questions 1$/);
    const zh = wordMessage(verdict.analysis_message, "zh");
    expect(zh).toMatch(/^拒答 无；.*F1 值 0；.*子问题 1$/);
    expect(zh).not.toMatch(/abstention|sub-questions|exact match/);
    expect(wordMessage(verdict.suggestion_message, "zh")).toBe(
      "请删除证据不支持的内容，或注明其来源：great、happened、1870。请更正回答：它与参考答案矛盾。请说出参考答案中的内容：1869。",
    );
  });
});
