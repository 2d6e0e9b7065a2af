import { describe, expect, it } from "vitest";
import {
  addedSupport,
  anyEvidence,
  EvidenceText,
  groundedness,
  groundednessOf,
  statedFacts,
} from "./groundedness.js";

const HISTORY =
  "In 1784 a group of salt merchants led by Wei Chenghai moved their drying beds from the silting " +
  "inland marshes to the estuary. The provincial governor granted Lanting a city charter in 1811, " +
  "when a census counted 18,400 residents.";

describe("statedFacts", () => {
  it("keeps distinct content tokens and numbers, without citation markers", () => {
    const facts = statedFacts(
      "Salt merchants founded Lanting in 1784 [lanting-history#1]; merchants!",
    );
    expect(facts.tokens).toEqual(["salt", "merchant", "founded", "lanting"]);
    expect(facts.sequence).toEqual(["salt", "merchant", "founded", "lanting", "merchant"]);
    expect(facts.numbers.map((n) => n.value)).toEqual(["1784"]);
  });
});

describe("groundedness", () => {
  it("is the share of distinct content tokens found in the contexts", () => {
    // Tokens: salt, merchant, founded, lanting; "founded" is not in the text.
    const measure = groundedness("Salt merchants founded Lanting in 1784.", [HISTORY]);
    expect(measure.tokens).toBe(4);
    expect(measure.supported_tokens).toBe(3);
    expect(measure.score).toBeCloseTo(0.75, 10);
    expect(measure.numbers).toBe(1);
    expect(measure.supported_numbers).toBe(1);
    expect(measure.unsupported).toEqual(["founded"]);
  });

  it("sets apart what the question already says", () => {
    const measure = groundedness(
      "Lanting was founded in 1784 by Portuguese pirates.",
      [HISTORY],
      "When was Lanting founded?",
    );
    // lanting and founded come from the question; portuguese and pirate are added, unsupported.
    expect(measure.tokens).toBe(4);
    expect(measure.added_tokens).toBe(2);
    expect(measure.supported_added_tokens).toBe(0);
    expect(measure.unsupported).toEqual(["portuguese", "pirate"]);
    // Numbers count twice: 1784 (2 units, supported) against two unsupported words.
    expect(addedSupport(measure)).toBeCloseTo(2 / 4, 10);
  });

  it("finds numbers in any spelling and plurals under their singular", () => {
    const measure = groundedness(
      "A census counted 18400 residents, and the governor granted charters.",
      [HISTORY],
    );
    expect(measure.supported_numbers).toBe(1);
    expect(measure.score).toBe(1);
    const wrong = groundedness("The census counted 19,000 residents.", [HISTORY]);
    expect(wrong.supported_numbers).toBe(0);
    expect(wrong.unsupported).toEqual(["19,000"]);
  });

  it("matches Chinese words as substrings of the contexts", () => {
    const contexts = ["澜汀大学成立于1952年，前身是1923年创办的澜汀商船学校。"];
    const grounded = groundedness("澜汀大学的前身是澜汀商船学校，成立于1952年。", contexts);
    expect(grounded.score).toBe(1);
    expect(grounded.supported_numbers).toBe(1);
    const invented = groundedness("澜汀大学由英国传教士创办于1898年。", contexts);
    expect(invented.score).toBeLessThan(0.7);
    expect(invented.unsupported).toContain("英国");
    expect(invented.supported_numbers).toBe(0);
  });

  it("is null with nothing to measure", () => {
    const measure = groundedness("It is.", [HISTORY]);
    expect(measure.score).toBeNull();
    expect(addedSupport(measure)).toBeNull();
  });
});

describe("evidence", () => {
  it("unites bodies and remembers answers", () => {
    const contexts = new EvidenceText([HISTORY]);
    const truth = new EvidenceText(["Lanting was founded by salt merchants."]);
    const facts = statedFacts("Salt merchants founded Lanting.");
    expect(groundednessOf(facts, contexts).supported_tokens).toBe(3);
    expect(groundednessOf(facts, anyEvidence(contexts, truth)).supported_tokens).toBe(4);
    expect(contexts.has("founded")).toBe(false);
  });

  it("does not run the end of one text into the next", () => {
    const evidence = new EvidenceText(["the salt", "pan"]);
    expect(evidence.has("saltpan")).toBe(false);
    expect(evidence.has("pan")).toBe(true);
  });
});
