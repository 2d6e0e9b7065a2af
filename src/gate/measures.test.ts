import { describe, expect, it } from "vitest";
import { DEFAULT_GATE_CONFIG } from "./config.js";
import {
  computeCitationCoverage,
  extractNodeIds,
  isAbstention,
  matchesWholly,
  parseCitationMarkers,
  resolveMarkers,
  sentenceSupport,
  supportReaches,
} from "./measures.js";

const hits = ["doc#1", "doc#2", "n1"].map((node_id) => ({ node_id, content: "" }));

describe("computeCitationCoverage", () => {
  it("is the share of distinct cited ids among the hits, always in [0,1]", () => {
    const cite = (...ids: string[]) => ids.map((node_id) => ({ node_id }));
    expect(computeCitationCoverage(cite("doc#1", "doc#2"), hits)).toBe(1);
    expect(computeCitationCoverage(cite("doc#1", "doc#9"), hits)).toBe(0.5);
    expect(computeCitationCoverage(cite("doc#1", "doc#1", "doc#9"), hits)).toBe(0.5);
    expect(computeCitationCoverage(cite("x", "y"), [])).toBe(0);
    expect(computeCitationCoverage([], hits)).toBe(0);
  });
});

describe("extractNodeIds", () => {
  it("returns the distinct ids", () => {
    expect([...extractNodeIds([{ node_id: "a" }, { node_id: "b" }, { node_id: "a" }])]).toEqual([
      "a",
      "b",
    ]);
  });
});

describe("parseCitationMarkers and resolveMarkers", () => {
  it("yields one marker per reference", () => {
    const markers = parseCitationMarkers("A [1][2]. B [n1, doc#2]. C 【3】.");
    expect(markers.map((m) => m.ref)).toEqual(["1", "2", "n1", "doc#2", "3"]);
    expect(markers[2]?.raw).toBe("[n1, doc#2]");
  });

  it("resolves exact node_ids first, then integers as 1-based positions", () => {
    const { hitsByRef, unresolved } = resolveMarkers(
      ["1", "3", "n1", "doc#2", "4", "n2", "1-2"],
      hits,
    );
    expect(hitsByRef.get("1")).toEqual([0]);
    expect(hitsByRef.get("3")).toEqual([2]);
    expect(hitsByRef.get("n1")).toEqual([2]);
    expect(hitsByRef.get("doc#2")).toEqual([1]);
    expect(hitsByRef.get("1-2")).toEqual([0, 1]);
    expect(unresolved).toEqual(["4", "n2"]);
  });

  it("prefers a node_id that looks like an integer over the position", () => {
    const numbered = [
      { node_id: "2", content: "" },
      { node_id: "1", content: "" },
    ];
    expect(resolveMarkers(["1"], numbered).hitsByRef.get("1")).toEqual([1]);
  });

  it("reads full-width references", () => {
    expect(resolveMarkers(["２"], hits).hitsByRef.get("２")).toEqual([1]);
  });
});

describe("sentenceSupport", () => {
  it("is the share of tokens the evidence has", () => {
    const evidence = new Set(["harbour", "opened", "quay"]);
    expect(sentenceSupport(["harbour", "opened", "quay", "ferry"], evidence)).toBe(0.75);
    expect(sentenceSupport([], evidence)).toBe(0);
  });

  it("is compared with a threshold by supportReaches without reading every token", () => {
    const evidence = new Set(["a", "c", "e", "f", "g", "h", "i"]);
    const words = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
    // Shares that floating point does not multiply back exactly (0.7 * 10, 1 / 3 * 3) included.
    const mins = [0, 0.1, 0.25, 1 / 3, 0.3, 0.5, 0.6, 2 / 3, 0.7, 0.9, 1];
    for (let mask = 0; mask < 1 << words.length; mask++) {
      const tokens = words.filter((_, i) => mask & (1 << i));
      for (const min of mins) {
        expect(supportReaches(tokens, evidence, min)).toBe(
          sentenceSupport(tokens, evidence) >= min,
        );
      }
    }
  });
});

describe("supportReaches at shares floating point rounds", () => {
  it("agrees with the division where share * count is not a whole number", () => {
    // 0.28 * 25 is 7.000000000000001 while 7 / 25 is 0.28; likewise 0.56 * 25 and 14 / 25.
    for (const [min, found] of [
      [0.28, 7],
      [0.56, 14],
    ] as const) {
      const tokens = Array.from({ length: 25 }, (_, i) => `t${i}`);
      for (const count of [found - 1, found, found + 1]) {
        const evidence = new Set(tokens.slice(0, count));
        expect(supportReaches(tokens, evidence, min)).toBe(
          sentenceSupport(tokens, evidence) >= min,
        );
      }
    }
  });
});

describe("patterns", () => {
  const abstention = DEFAULT_GATE_CONFIG.checks.honest_abstention.abstention_patterns;
  const templates = DEFAULT_GATE_CONFIG.checks.no_empty_answer.template_patterns;

  it("recognise abstentions in English and Chinese, with curly apostrophes", () => {
    expect(isAbstention("The sources do not mention the mayor.", abstention)).toBe(true);
    expect(isAbstention("I don\u2019t know.", abstention)).toBe(true);
    expect(isAbstention("资料中没有提到这座桥。", abstention)).toBe(true);
    expect(isAbstention("The bridge opened in 1962.", abstention)).toBe(false);
  });

  it("match templates wholly, case-insensitively", () => {
    expect(matchesWholly("TODO", templates)).toBe(true);
    expect(matchesWholly("{{answer}}", templates)).toBe(true);
    expect(matchesWholly("[insert answer here]", templates)).toBe(true);
    expect(matchesWholly("TODO: the bridge opened in 1962", templates)).toBe(false);
  });
});
