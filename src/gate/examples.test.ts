// examples/gate/answers.jsonl: each line gets the verdict examples/gate/README.md promises, and
// every hit is a verbatim chunk (one paragraph) of the document in examples/corpus it names.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluateGate } from "./evaluate.js";
import { type EvaluatorInput, EvaluatorInputSchema, type GateStatus } from "./schema.js";

const root = join(import.meta.dirname, "..", "..", "examples");

/** Intended verdict of each example, and the checks that must have caused it. */
const INTENDED: Record<string, { status: GateStatus; because: string[] }> = {
  "en-pass-founding": { status: "pass", because: [] },
  "en-pass-metro": { status: "pass", because: [] },
  "zh-pass-university": { status: "pass", because: [] },
  "zh-pass-festival": { status: "pass", because: [] },
  "en-pass-abstention-no-hits": { status: "pass", because: ["honest_abstention"] },
  "zh-pass-abstention-with-hits": { status: "pass", because: [] },
  "en-partial-extra-claim": { status: "partial", because: ["sentence_support"] },
  "en-partial-short": { status: "partial", because: ["min_answer_length"] },
  "zh-partial-unsupported-sentence": { status: "partial", because: ["sentence_support"] },
  "en-partial-override": { status: "partial", because: ["numeric_consistency"] },
  "en-fail-no-citations": { status: "fail", because: ["require_citations"] },
  "en-fail-citation-outside-hits": {
    status: "fail",
    because: ["citation_coverage", "citation_markers"],
  },
  "en-fail-invented-number": { status: "fail", because: ["numeric_consistency"] },
  "zh-fail-fabricated": { status: "fail", because: ["sentence_support", "numeric_consistency"] },
  "en-fail-confident-no-hits": {
    status: "fail",
    because: ["honest_abstention", "require_citations"],
  },
  "en-fail-template": { status: "fail", because: ["no_empty_answer"] },
};

function loadExamples(): EvaluatorInput[] {
  const text = readFileSync(join(root, "gate", "answers.jsonl"), "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => EvaluatorInputSchema.parse(JSON.parse(line)));
}

/** node_id "slug#n" -> paragraph n (1-based, headings excluded) of examples/corpus/slug.md. */
function loadCorpusChunks(): Map<string, string> {
  const chunks = new Map<string, string>();
  const dir = join(root, "corpus");
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".md"))) {
    const paragraphs = readFileSync(join(dir, file), "utf8")
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter((p) => p !== "" && !p.startsWith("#"));
    for (const [i, p] of paragraphs.entries())
      chunks.set(`${file.replace(/\.md$/, "")}#${i + 1}`, p);
  }
  return chunks;
}

const examples = loadExamples();

describe("examples/gate/answers.jsonl", () => {
  it("holds exactly the intended examples", () => {
    expect(examples.map((e) => e.message_id).sort()).toEqual(Object.keys(INTENDED).sort());
  });

  it("takes every hit verbatim from the corpus", () => {
    const chunks = loadCorpusChunks();
    for (const example of examples) {
      for (const hit of example.retrieval_hits)
        expect(chunks.get(hit.node_id), hit.node_id).toBe(hit.content);
    }
  });

  it.each(examples.map((e) => [e.message_id, e] as const))(
    "%s gets its intended verdict",
    (id, example) => {
      const intended = INTENDED[id];
      if (intended === undefined) throw new Error(`no intended verdict for ${id}`);
      const verdict = evaluateGate(example);
      expect(verdict.status).toBe(intended.status);
      const decisive =
        intended.status === "pass" ? "pass" : intended.status === "partial" ? "warn" : "fail";
      for (const name of intended.because) {
        expect(verdict.checks.find((c) => c.name === name)?.status, name).toBe(decisive);
      }
    },
  );

  it("covers English and Chinese, and every verdict the brief asks for", () => {
    const count = (status: GateStatus) =>
      Object.values(INTENDED).filter((i) => i.status === status).length;
    expect(count("pass")).toBeGreaterThanOrEqual(4);
    expect(count("partial")).toBeGreaterThanOrEqual(3);
    expect(count("fail")).toBeGreaterThanOrEqual(4);
    expect(examples.some((e) => /[\u4e00-\u9fff]/.test(e.generation_output.answer))).toBe(true);
  });
});
