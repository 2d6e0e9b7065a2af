import { describe, expect, it } from "vitest";
import {
  checkCitationCoverage,
  checkCitationMarkers,
  checkHonestAbstention,
  checkMinAnswerLength,
  checkNoEmptyAnswer,
  checkNumericConsistency,
  checkRequireCitations,
  checkSentenceSupport,
} from "./checks.js";
import { DEFAULT_GATE_CONFIG, resolveGateConfig } from "./config.js";
import type { EvaluatorInput, GateConfigOverride } from "./schema.js";

const HITS = {
  "harbour#1":
    "The Marrowick harbour opened in 1784. Salt traders built the first stone quay, and by 1811 the " +
    "harbour handled 1,200 ships a year.",
  "harbour#2":
    "The Great Fire of 1869 destroyed 412 buildings along the waterfront. The council rebuilt the " +
    "customs house in brick in 1872.",
  "metro#1":
    "The Harrow Line metro opened on March 5, 2009 with 14 stations and 22.6 km of track. It carries " +
    "186,000 riders a day, about 12.5% of all trips in the city.",
  "澜汀#1": "澜汀港始建于1784年，由盐商修建第一座石码头。1811年，澜汀港每年停靠船只1200艘。",
  "澜汀#2": "2016年7月12日，澜汀遭遇特大洪水，全市共有1.2万人紧急撤离，沿江的三座桥梁被冲毁。",
};
type HitId = keyof typeof HITS;

function input(
  answer: string,
  options: { hits?: HitId[]; citations?: string[]; config?: GateConfigOverride } = {},
): EvaluatorInput {
  const hits = options.hits ?? (Object.keys(HITS) as HitId[]);
  return {
    conversation_id: "c1",
    message_id: "m1",
    retrieval_record: { id: "r1" },
    retrieval_hits: hits.map((node_id) => ({ node_id, content: HITS[node_id] })),
    generation_record: { id: "g1" },
    generation_output: {
      answer,
      citations: (options.citations ?? []).map((node_id) => ({ node_id })),
    },
    ...(options.config ? { config: options.config } : {}),
  };
}

const defaults = DEFAULT_GATE_CONFIG;
const withConfig = (override: GateConfigOverride) =>
  resolveGateConfig(DEFAULT_GATE_CONFIG, override);

describe("no_empty_answer", () => {
  it("fails empty, blank and marker-only answers", () => {
    expect(checkNoEmptyAnswer(input(""), defaults)).toMatchObject({
      status: "fail",
      detail: { reason: "empty answer" },
    });
    expect(checkNoEmptyAnswer(input(" \n\t "), defaults).status).toBe("fail");
    expect(checkNoEmptyAnswer(input("[1][2]"), defaults)).toMatchObject({
      status: "fail",
      detail: { reason: "only citation markers" },
    });
  });

  it("fails template answers and names the pattern", () => {
    const check = checkNoEmptyAnswer(input("  TODO "), defaults);
    expect(check.status).toBe("fail");
    expect(check.detail.reason).toBe("template answer");
    expect(check.detail.pattern).toMatch(/todo/);
    expect(checkNoEmptyAnswer(input("{{answer}}"), defaults).status).toBe("fail");
  });

  it("passes a real answer, and follows the configured severity", () => {
    expect(checkNoEmptyAnswer(input("The harbour opened in 1784 [1]."), defaults).status).toBe(
      "pass",
    );
    expect(
      checkNoEmptyAnswer(
        input(""),
        withConfig({ checks: { no_empty_answer: { severity: "warn" } } }),
      ).status,
    ).toBe("warn");
  });
});

describe("require_citations", () => {
  it("passes with structured citations or inline markers", () => {
    expect(
      checkRequireCitations(input("It opened in 1784.", { citations: ["harbour#1"] }), defaults)
        .status,
    ).toBe("pass");
    expect(checkRequireCitations(input("It opened in 1784 [1]."), defaults)).toMatchObject({
      status: "pass",
      detail: { citations: 0, markers: 1 },
    });
  });

  it("fails an answer that cites nothing", () => {
    expect(checkRequireCitations(input("The harbour opened in 1784."), defaults).status).toBe(
      "fail",
    );
  });

  it("is skipped for an honest abstention, with the reason", () => {
    const check = checkRequireCitations(
      input("The sources do not mention the mayor's name."),
      defaults,
    );
    expect(check.status).toBe("skipped");
    expect(check.detail.reason).toMatch(/abstains/);
  });
});

describe("citation_coverage", () => {
  it("passes when every cited node_id is a hit", () => {
    const check = checkCitationCoverage(
      input("x", { citations: ["harbour#1", "metro#1"] }),
      defaults,
    );
    expect(check).toMatchObject({ status: "pass", detail: { score: 1, unknown: [] } });
  });

  it("fails below the threshold and lists unknown ids", () => {
    const check = checkCitationCoverage(
      input("x", { citations: ["harbour#1", "harbour#9"] }),
      defaults,
    );
    expect(check).toMatchObject({ status: "fail", detail: { score: 0.5, unknown: ["harbour#9"] } });
    const lenient = withConfig({ checks: { citation_coverage: { threshold: 0.5 } } });
    expect(
      checkCitationCoverage(input("x", { citations: ["harbour#1", "harbour#9"] }), lenient).status,
    ).toBe("pass");
  });

  it("scores 0 when citations exist but retrieval found nothing", () => {
    const check = checkCitationCoverage(
      input("x", { hits: [], citations: ["harbour#1"] }),
      defaults,
    );
    expect(check).toMatchObject({ status: "fail", detail: { score: 0 } });
  });

  it("is skipped without citations", () => {
    expect(checkCitationCoverage(input("x"), defaults).status).toBe("skipped");
  });
});

describe("min_answer_length", () => {
  it("warns below min_chars, counting normalized characters without markers", () => {
    expect(checkMinAnswerLength(input("Opened 1784 [1][2][3]."), defaults)).toMatchObject({
      status: "warn",
      detail: { chars: 12, min_chars: 20 },
    });
    expect(checkMinAnswerLength(input("The harbour opened in 1784 [1]."), defaults).status).toBe(
      "pass",
    );
  });

  it("counts Chinese characters one each", () => {
    expect(checkMinAnswerLength(input("澜汀港始建于1784年。"), defaults).detail.chars).toBe(12);
  });

  it("follows min_chars and severity", () => {
    const strict = withConfig({
      checks: { min_answer_length: { min_chars: 100, severity: "fail" } },
    });
    expect(checkMinAnswerLength(input("The harbour opened in 1784."), strict).status).toBe("fail");
  });
});

describe("citation_markers", () => {
  it("resolves [1] by position and [n1] only by node_id", () => {
    expect(checkCitationMarkers(input("Opened in 1784 [1]."), defaults)).toMatchObject({
      status: "pass",
      detail: { score: 1 },
    });
    const check = checkCitationMarkers(input("Opened in 1784 [n1]."), defaults);
    expect(check).toMatchObject({ status: "fail", detail: { score: 0, unresolved: ["n1"] } });
  });

  it("resolves exact node_ids, full-width brackets, lists and ranges", () => {
    const answer = "A [harbour#2]. B 【1】. C [1, 3]. D [1-2].";
    expect(checkCitationMarkers(input(answer), defaults).status).toBe("pass");
  });

  it("fails markers beyond the hits and reports the share resolved", () => {
    const check = checkCitationMarkers(input("A [1]. B [9]."), defaults);
    expect(check).toMatchObject({ status: "fail", detail: { score: 0.5, unresolved: ["9"] } });
  });

  it("is skipped without markers", () => {
    expect(checkCitationMarkers(input("No markers here."), defaults).status).toBe("skipped");
  });
});

describe("sentence_support", () => {
  it("passes English sentences grounded in their cited hits", () => {
    const answer =
      "The Marrowick harbour opened in 1784 [1]. The Great Fire destroyed buildings along the waterfront [2].";
    const check = checkSentenceSupport(input(answer), defaults);
    expect(check).toMatchObject({ status: "pass", detail: { judged: 2, supported: 2, score: 1 } });
  });

  it("fails invented claims and explains them", () => {
    const answer =
      "Marrowick elected a famous poet as mayor, who abolished all ferry fares and built a zoo.";
    const check = checkSentenceSupport(input(answer), defaults);
    expect(check.status).toBe("fail");
    const [unsupported] = check.detail.unsupported as {
      sentence: string;
      support: number;
      missing: string[];
    }[];
    expect(unsupported?.sentence).toContain("poet");
    expect(unsupported?.support).toBeLessThan(0.5);
    expect(unsupported?.missing).toContain("poet");
  });

  it("warns when a minority of sentences is unsupported", () => {
    const answer =
      "The Marrowick harbour opened in 1784 [1]. Salt traders built the first stone quay [1]. " +
      "Dragons guarded the lighthouse every winter night.";
    const check = checkSentenceSupport(input(answer), defaults);
    expect(check).toMatchObject({ status: "warn", detail: { judged: 3, supported: 2 } });
  });

  it("judges a sentence against the hits its markers cite", () => {
    const answer = "The Great Fire destroyed buildings along the waterfront [1].";
    expect(
      checkSentenceSupport(input(answer, { hits: ["harbour#1", "harbour#2"] }), defaults).status,
    ).toBe("fail");
    expect(
      checkSentenceSupport(input(answer, { hits: ["harbour#2", "harbour#1"] }), defaults).status,
    ).toBe("pass");
  });

  it("passes a Chinese answer supported by a Chinese hit and fails an invented one", () => {
    const supported = "澜汀港始建于1784年，由盐商修建第一座石码头【4】。";
    expect(checkSentenceSupport(input(supported), defaults).status).toBe("pass");
    const invented = "澜汀市长宣布免费开放动物园，并在山顶修建了一座天文台。";
    expect(checkSentenceSupport(input(invented), defaults).status).toBe("fail");
  });

  it("does not judge abstaining or short sentences", () => {
    const answer =
      "Yes. The sources do not mention who designed the customs house or its architect.";
    const check = checkSentenceSupport(input(answer), defaults);
    expect(check).toMatchObject({
      status: "skipped",
      detail: { short_sentences: 1, abstaining_sentences: 1 },
    });
  });

  it("is skipped without hits", () => {
    expect(
      checkSentenceSupport(input("The harbour opened in 1784.", { hits: [] }), defaults).status,
    ).toBe("skipped");
  });

  it("follows max_unsupported_ratio and severity", () => {
    const answer = "Dragons guarded the lighthouse every winter night.";
    const lenient = withConfig({ checks: { sentence_support: { max_unsupported_ratio: 1 } } });
    expect(checkSentenceSupport(input(answer), lenient).status).toBe("warn");
    const warnOnly = withConfig({ checks: { sentence_support: { severity: "warn" } } });
    expect(checkSentenceSupport(input(answer), warnOnly).status).toBe("warn");
  });
});

describe("numeric_consistency", () => {
  it("matches numbers across formatting: 1,200 and 1200, dates, percentages", () => {
    const answer =
      "By 1811 the harbour handled 1200 ships a year [1]. The metro opened on 2009-03-05 and carries " +
      "12.5 percent of trips [3].";
    expect(checkNumericConsistency(input(answer), defaults)).toMatchObject({
      status: "pass",
      detail: { numbers: 4, score: 1 },
    });
  });

  it("fails an invented number and lists it", () => {
    const check = checkNumericConsistency(input("The metro has 18 stations [3]."), defaults);
    expect(check).toMatchObject({ status: "fail", detail: { score: 0 } });
    expect(check.detail.missing).toEqual([
      { raw: "18", value: "18", sentence: "The metro has 18 stations." },
    ]);
  });

  it("requires the number in the hit the sentence cites", () => {
    expect(
      checkNumericConsistency(input("The fire destroyed 412 buildings [1]."), defaults).status,
    ).toBe("fail");
    expect(
      checkNumericConsistency(input("The fire destroyed 412 buildings [2]."), defaults).status,
    ).toBe("pass");
    expect(
      checkNumericConsistency(input("The fire destroyed 412 buildings."), defaults).status,
    ).toBe("pass");
  });

  it("reads Chinese numbers and dates", () => {
    const answer = "2016年7月12日澜汀发生洪水，1.2万人撤离，3座桥梁被冲毁[5]。";
    expect(checkNumericConsistency(input(answer), defaults).status).toBe("pass");
    expect(
      checkNumericConsistency(input("2016年8月澜汀发生洪水，2万人撤离[5]。"), defaults).status,
    ).toBe("fail");
  });

  it("ignores numbers inside markers and in abstaining sentences", () => {
    const answer =
      "The sources do not mention the 1901 census [1]. The harbour opened in 1784 [1].";
    expect(checkNumericConsistency(input(answer), defaults)).toMatchObject({
      status: "pass",
      detail: { numbers: 1 },
    });
  });

  it("is skipped without numbers, or without hits", () => {
    expect(checkNumericConsistency(input("The harbour opened early [1]."), defaults).status).toBe(
      "skipped",
    );
    expect(
      checkNumericConsistency(input("It opened in 1784.", { hits: [] }), defaults).status,
    ).toBe("skipped");
  });
});

describe("honest_abstention", () => {
  it("passes an abstention when retrieval found nothing", () => {
    expect(
      checkHonestAbstention(
        input("I could not find that in the documents.", { hits: [] }),
        defaults,
      ).status,
    ).toBe("pass");
    expect(
      checkHonestAbstention(
        input("There is no relevant information in the sources.", { hits: [] }),
        defaults,
      ),
    ).toMatchObject({ status: "pass", detail: { abstains: true } });
    expect(
      checkHonestAbstention(input("资料中没有相关信息，无法回答。", { hits: [] }), defaults).status,
    ).toBe("pass");
  });

  it("fails a confident answer without evidence", () => {
    const check = checkHonestAbstention(
      input("The harbour opened in 1784.", { hits: [] }),
      defaults,
    );
    expect(check).toMatchObject({ status: "fail", detail: { abstains: false } });
  });

  it("is skipped when there are hits, saying whether the answer abstains", () => {
    expect(checkHonestAbstention(input("The sources do not mention it."), defaults)).toMatchObject({
      status: "skipped",
      detail: { abstains: true },
    });
    expect(checkHonestAbstention(input("", { hits: [] }), defaults).status).toBe("skipped");
  });
});
