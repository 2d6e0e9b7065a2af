// Issue 27 §1.2: spelled-out numbers have one reader (text/number-words.ts). The gate, the
// groundedness judge and the reference judge must read the same numbers from the same text; before,
// the gate read "twenty-one" as {20, 1} and missed "一万两千" that the reference judge read as 12000.

import { describe, expect, it } from "vitest";
import { EvaluatorInputSchema, guard } from "../../gate/index.js";
import { evidenceWordValues, extractNumberWords } from "../../text/index.js";
import { groundedness } from "./groundedness.js";
import { offline } from "./index.js";

const EVIDENCE =
  "The Lanting viaduct has twenty-one arches and drew 一万两千 visitors in its first year.";

function gateOn(answer: string) {
  return guard(
    EvaluatorInputSchema.parse({
      conversation_id: "c",
      message_id: "m",
      retrieval_record: { id: "r", query: "How many arches, and how many visitors?" },
      retrieval_hits: [{ node_id: "n1", content: EVIDENCE }],
      generation_record: { id: "g" },
      generation_output: { answer },
    }),
  );
}

const referenceVerdict = (answer: string) =>
  offline({
    question: "How many arches does the viaduct have, and how many visitors came?",
    answer,
    ground_truth: "twenty-one arches and 一万两千 visitors",
  }).verdict?.reference_verdict;

describe("one reader of spelled-out numbers", () => {
  it("reads whole numbers: twenty-one is 21 (not 20 and 1), 一万两千 is 12000", () => {
    expect([...evidenceWordValues(EVIDENCE)]).toEqual(["21", "12000"]);
    expect(extractNumberWords(EVIDENCE).map((m) => m.value)).toEqual(["21", "12000"]);
  });

  it("the gate supports exactly the numbers the reader reads", () => {
    const right = gateOn(
      "The viaduct has 21 arches and drew 12000 visitors in its first year [n1].",
    );
    expect(right.reasons.filter((r) => r.check === "numeric_consistency")).toEqual([]);
    const wrong = gateOn(
      "The viaduct has 20 arches and drew 12000 visitors in its first year [n1].",
    );
    expect(wrong.reasons.find((r) => r.check === "numeric_consistency")?.message).toBe(
      "1 of 2 figures are not in the cited passages: 20.",
    );
  });

  it("groundedness supports the same numbers", () => {
    const right = groundedness("It has 21 arches and drew 12000 visitors.", [EVIDENCE]);
    expect([right.numbers, right.supported_numbers]).toEqual([2, 2]);
    const wrong = groundedness("It has 20 arches and drew 12000 visitors.", [EVIDENCE]);
    expect([wrong.numbers, wrong.supported_numbers, wrong.unsupported]).toEqual([2, 1, ["20"]]);
  });

  it("the reference judge agrees: 21 and 12000 state the reference, 20 contradicts it", () => {
    expect(referenceVerdict("It has 21 arches and drew 12000 visitors in its first year.")).toBe(
      "correct",
    );
    expect(referenceVerdict("It has 20 arches and drew 12000 visitors in its first year.")).toBe(
      "contradicted",
    );
  });

  it("a dozen, and English or Chinese words inside ordinary text", () => {
    expect([...evidenceWordValues("two dozen piers and a dozen lamps")]).toEqual(["24", "12"]);
    // A lone Chinese digit inside a word is not a number: 一般 is "ordinary".
    expect([...evidenceWordValues("一般的桥有三座桥墩")]).toEqual(["3"]);
  });
});
