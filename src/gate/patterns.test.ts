import { expect, it } from "vitest";
import { evaluateGate } from "./evaluate.js";
import { compilePatternList, patternSyntaxError } from "./patterns.js";
import { GateConfigOverrideSchema, type EvaluatorInput } from "./schema.js";

// The issue's repro: on a backtracking engine each extra "a" doubles the time (10 s at 28).
const EVIL = "^(a+)+$";
const EVIL_TEXT = `${"a".repeat(28)}!`;

it("matches a catastrophic pattern in linear time, with the same answer", () => {
  for (const mode of ["anywhere", "whole", "lines"] as const) {
    expect(compilePatternList([EVIL], mode).test(EVIL_TEXT)).toBe(false);
    expect(compilePatternList([EVIL], mode).test("aaaa")).toBe(true);
  }
  // A million-character text would never finish under backtracking.
  expect(compilePatternList(["(x+x+)+y"], "anywhere").test("x".repeat(1_000_000))).toBe(false);
});

it("applies the modes case-insensitively, and an empty list matches nothing", () => {
  expect(compilePatternList(["todo"], "whole").test("TODO")).toBe(true);
  expect(compilePatternList(["todo"], "whole").test("TODO later")).toBe(false);
  expect(compilePatternList(["^later$"], "lines").test("first\nLATER\nlast")).toBe(true);
  expect(compilePatternList(["^later$"], "anywhere").test("first\nlater\nlast")).toBe(false);
  expect(compilePatternList([], "anywhere").test("")).toBe(false);
});

it("refuses what RE2 cannot match in linear time, naming the construct", () => {
  expect(patternSyntaxError("(?=a)b")).toMatch(/\(\?=/);
  expect(patternSyntaxError("(a)\\1")).toMatch(/\\1/);
  expect(patternSyntaxError("\\b(not|no) found\\b")).toBeUndefined();
  const parsed = GateConfigOverrideSchema.safeParse({
    checks: { honest_abstention: { abstention_patterns: ["ok", "(?<!x)y"] } },
  });
  expect(parsed.success).toBe(false);
  expect(parsed.error?.issues[0]?.path).toEqual([
    "checks",
    "honest_abstention",
    "abstention_patterns",
    1,
  ]);
});

it("gates an answer against a request's catastrophic patterns (issue 12 §1.1)", () => {
  const input: EvaluatorInput = {
    conversation_id: "c",
    message_id: "m",
    retrieval_record: { id: "r" },
    retrieval_hits: [{ node_id: "n1", content: "aaaa" }],
    generation_record: { id: "g" },
    generation_output: { answer: EVIL_TEXT, citations: [{ node_id: "n1" }] },
    config: {
      checks: {
        no_empty_answer: { template_patterns: [EVIL] },
        honest_abstention: { abstention_patterns: [EVIL] },
      },
    },
  };
  const verdict = evaluateGate(input);
  const byName = Object.fromEntries(verdict.checks.map((check) => [check.name, check]));
  expect(byName.no_empty_answer?.status).toBe("pass");
  expect(byName.honest_abstention?.detail).toMatchObject({ abstains: false });
});
