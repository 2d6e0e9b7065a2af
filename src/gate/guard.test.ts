import { describe, expect, it } from "vitest";
import { guard } from "./guard.js";
import { EvaluatorInputSchema, type EvaluatorInput } from "./schema.js";

const HITS = {
  n1: "The Lanting bridge was built in 1870 by the river guild and has nine stone arches.",
  n2: "Tickets to the bridge museum cost 12 yuan for adults and 6 yuan for children.",
  z1: "澜汀港始建于1784年，由盐商修建第一座石码头。1811年，澜汀港每年停靠船只1200艘。",
};

function input(answer: string, citations: string[] = []): EvaluatorInput {
  return EvaluatorInputSchema.parse({
    conversation_id: "c1",
    message_id: "m1",
    retrieval_record: { id: "r1", query: "Tell me about the bridge" },
    retrieval_hits: Object.entries(HITS).map(([node_id, content]) => ({ node_id, content })),
    generation_record: { id: "g1" },
    generation_output: { answer, citations: citations.map((node_id) => ({ node_id })) },
  });
}

const GOOD = "The Lanting bridge was built in 1870 by the river guild [n1].";

describe("guard", () => {
  it("allows an answer the gate shows, unchanged and with no reasons", () => {
    const answer = `${GOOD} Adult tickets cost 12 yuan [n2].`;
    const result = guard(input(answer));
    expect(result.decision).toBe("allow");
    expect(result.answer).toBe(answer);
    expect(result.reasons).toEqual([]);
    expect(result.verdict.status).toBe("pass");
  });

  it("repairs by removing the sentence with a figure the cited passage does not state", () => {
    const result = guard(input(`${GOOD} Adult tickets cost 15 yuan [n2].`));
    expect(result.decision).toBe("repair");
    expect(result.answer).toBe(GOOD);
    expect(result.verdict.status).toBe("fail");
    expect(result.repaired_verdict?.status).toBe("pass");
    expect(result.repair?.removed).toEqual([
      {
        sentence: "Adult tickets cost 15 yuan [n2].",
        reason: "unsupported_figure",
        figures: ["15"],
      },
    ]);
    expect(result.reasons).toEqual([
      {
        check: "numeric_consistency",
        status: "fail",
        message: "1 of 2 figures are not in the cited passages: 15.",
      },
    ]);
  });

  it("repairs by removing a sentence whose words are not in its passage, keeping the line breaks", () => {
    const answer = `${GOOD}\nThe mayor painted dragons on every lamppost during festivals [n1].\n\nAdult tickets cost 12 yuan [n2].`;
    const result = guard(input(answer));
    expect(result.decision).toBe("repair");
    expect(result.answer).toBe(`${GOOD}\n\nAdult tickets cost 12 yuan [n2].`);
    expect(result.repair?.removed.map((r) => r.reason)).toEqual(["unsupported"]);
    expect(result.reasons[0]?.message).toBe(
      "1 of 3 sentences have no support in the cited passages (needed 2 supported).",
    );
  });

  it("re-points a marker that names no passage to the passage supporting its sentence", () => {
    const result = guard(input("The Lanting bridge was built in 1870 by the river guild [n7]."));
    expect(result.decision).toBe("repair");
    expect(result.answer).toBe(GOOD);
    expect(result.repair?.repointed_markers).toEqual([{ from: "[n7]", to: "[n1]" }]);
  });

  it("drops citations that are not among the hits", () => {
    const result = guard(
      input("The Lanting bridge was built in 1870 by the river guild.", ["n1", "gone"]),
    );
    expect(result.decision).toBe("repair");
    expect(result.citations).toEqual([{ node_id: "n1" }]);
    expect(result.repair?.removed_citations).toEqual(["gone"]);
  });

  it("blocks an answer with nothing supported, with every reason in words", () => {
    const result = guard(
      input("The mayor painted dragons on every lamppost during winter festivals."),
    );
    expect(result.decision).toBe("block");
    expect(result.answer).toBe("");
    expect(result.reasons.map((r) => r.check)).toEqual(["require_citations", "sentence_support"]);
    expect(result.reasons.every((r) => !r.message.includes("{"))).toBe(true);
  });

  it("blocks instead of repairing when repair is off", () => {
    const result = guard(input(`${GOOD} Adult tickets cost 15 yuan [n2].`), { repair: false });
    expect(result.decision).toBe("block");
    expect(result.repair).toBeUndefined();
  });

  it("allows a warned answer as given when repair is off, with the warning as a reason", () => {
    const answer = `${GOOD} The mayor painted dragons on every lamppost during festivals [n1]. Adult tickets cost 12 yuan [n2].`;
    const result = guard(input(answer), { repair: false });
    expect(result.verdict.action).toBe("show_with_warning");
    expect(result.decision).toBe("allow");
    expect(result.answer).toBe(answer);
    expect(result.reasons.map((r) => [r.check, r.status])).toEqual([["sentence_support", "warn"]]);
  });

  it("words its reasons in Chinese on request and repairs a Chinese answer", () => {
    const result = guard(input("澜汀港始建于1784年[z1]。1811年每年停靠船只1500艘[z1]。"), {
      lang: "zh",
    });
    expect(result.decision).toBe("repair");
    expect(result.answer).toBe("澜汀港始建于1784年[z1]。");
    expect(result.reasons[0]?.message).toBe("3 个数字中有 1 个不在所引段落中：1500。");
  });
});
