import { describe, expect, it } from "vitest";
import { evidenceWords, splitQuestions, wordSupport } from "./word-support.js";

const PORT =
  "Lanting Qiao International Airport, 28 km east of the centre, opened a new terminal in 2018.";
const evidence = evidenceWords([PORT]);

describe("wordSupport", () => {
  it("is 1 when every word and word pair is in the contexts", () => {
    const support = wordSupport("Opened a new terminal in 2018.", evidence);
    expect(support).toMatchObject({ words: 6, unsupported_words: 0, questions: 0, score: 1 });
  });

  it("charges unsupported words by number over the square root of the length", () => {
    // it, is, busiest, province unsupported among 12 distinct words; 10 of 15 pairs unsupported.
    const support = wordSupport(
      "The airport opened a new terminal in 2018. It is the busiest airport in the province.",
      evidence,
    );
    expect(support.unsupported).toEqual(["it", "is", "busiest", "province"]);
    expect(support.score).toBeCloseTo(Math.exp(-(4 + 0.1 * 10) / Math.sqrt(12) / 4), 12);
    // Their share instead (the ablation's "length scaling" off): cost over 12 words.
    expect(
      wordSupport(
        "The airport opened a new terminal in 2018. It is the busiest airport in the province.",
        evidence,
        { lengthScaling: false },
      ).score,
    ).toBeCloseTo(Math.exp(-(4 + 0.1 * 10) / 12 / 4), 12);
  });

  it("weighs a first- or second-person word the contexts lack three times", () => {
    // i (personal) and love unsupported; pairs "i love", "love the", "the airport" unsupported.
    const support = wordSupport("I love the airport.", evidence);
    expect(support).toMatchObject({ words: 4, unsupported_words: 2, unsupported_personal: 1 });
    expect(support.score).toBeCloseTo(Math.exp(-(2 + 2 * 1 + 0.3) / 2 / 4), 12);
    expect(
      wordSupport("I love the airport.", evidence, { personalWords: false }).score,
    ).toBeCloseTo(Math.exp(-(2 + 0.3) / 2 / 4), 12);
  });

  it("reads a question as no claim, and charges it", () => {
    expect(wordSupport("Did it open in 2018?", evidence)).toMatchObject({ questions: 1, score: 0 });
    // "It opened in 2018.": "it" unsupported, pairs "it opened" and "opened in" too.
    const mixed = wordSupport("It opened in 2018. Did you fly?", evidence);
    expect(mixed).toMatchObject({ words: 4, unsupported_words: 1, questions: 1 });
    expect(mixed.score).toBeCloseTo(Math.exp(-((1 + 0.2) / 2 + 1) / 4), 12);
  });

  it("leaves citation markers out and reads contractions as one word", () => {
    const support = wordSupport(
      "It's the airport [lanting-transport#2].",
      evidenceWords(["its the airport"]),
    );
    expect(support).toMatchObject({ words: 3, unsupported_words: 0, score: 1 });
  });

  it("charges each misattached figure as four unsupported words", () => {
    const support = wordSupport("Opened a new terminal in 2018.", evidence, {}, 1);
    expect(support.score).toBeCloseTo(Math.exp(-4 / Math.sqrt(6) / 4), 12);
  });

  it("is null for an answer without words or questions", () => {
    expect(wordSupport("…", evidence).score).toBeNull();
  });
});

describe("splitQuestions", () => {
  it("counts the sentences that end in a question mark", () => {
    expect(splitQuestions("Paris. Why? 你呢？")).toEqual({ statements: "Paris.", questions: 2 });
    expect(splitQuestions("No question here.")).toEqual({
      statements: "No question here.",
      questions: 0,
    });
  });
});
