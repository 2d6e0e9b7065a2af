import { describe, expect, it } from "vitest";
import { countSubQuestions, measureAnswer } from "./measures.js";

const FOUNDING =
  "In 1784 a group of salt merchants led by Wei Chenghai moved their drying beds from the silting " +
  "inland marshes to the estuary.";
const question = "When was Lanting founded, and by whom?";

describe("countSubQuestions", () => {
  it("counts interrogatives, 1 to 4", () => {
    expect(countSubQuestions("When was Lanting founded, and by whom?")).toBe(2);
    expect(countSubQuestions("Describe the Tidewall.")).toBe(1);
    expect(countSubQuestions("澜汀大学成立于哪一年？现在有多少在校学生？")).toBe(2);
    expect(countSubQuestions("Who, what, when, where and why, and how?")).toBe(4);
  });
});

describe("measureAnswer", () => {
  it("measures against contexts only when there is no ground truth", () => {
    const m = measureAnswer({
      question,
      answer: "Salt merchants led by Wei Chenghai founded it in 1784 [1].",
      contexts: [FOUNDING],
    });
    expect(m.exact_match).toBeNull();
    expect(m.f1).toBeNull();
    expect(m.rouge_l).toBeNull();
    expect(m.ground_truth_coverage).toBeNull();
    expect(m.abstention).toBe("none");
    // salt, merchant, led, wei, chenghai supported; "founded" (the question's word) is not.
    expect(m.groundedness?.score).toBeCloseTo(5 / 6, 10);
    expect(m.groundedness?.added_tokens).toBe(5);
    expect(m.groundedness?.supported_added_tokens).toBe(5);
    expect(m.support).toBe(m.groundedness);
    expect(m.added_units).toBe(5 + 2);
    expect(m.question_overlap).toBeCloseTo(1 / 2, 10); // founded, not lanting
  });

  it("has no groundedness without contexts", () => {
    const m = measureAnswer({ question, answer: "In 1784.", contexts: [] });
    expect(m.groundedness).toBeNull();
    expect(m.support).toBeNull();
    expect(m.added_units).toBe(2);
  });

  it("measures the ground truth's coverage and whether the contexts hold it", () => {
    const m = measureAnswer({
      question,
      answer: "Lanting was founded in 1784.",
      contexts: [FOUNDING],
      ground_truth: "In 1784, by salt merchants led by Wei Chenghai.",
    });
    expect(m.exact_match).toBe(0);
    // The ground truth adds salt, merchant, led, wei, chenghai and 1784 (2 units): 2 of 7 stated.
    expect(m.ground_truth_coverage).toBeCloseTo(2 / 7, 10);
    expect(m.ground_truth_missing).toEqual(["salt", "merchant", "led", "wei", "chenghai"]);
    expect(m.ground_truth_in_contexts).toBe(1);
    expect(m.ground_truth_abstains).toBe(false);
    // [lanting, was, founded, in, 1784] vs [in, 1784, by, salt, merchants, led, by, wei, chenghai].
    expect(m.f1?.precision).toBeCloseTo(2 / 5, 10);
    expect(m.f1?.recall).toBeCloseTo(2 / 9, 10);
  });

  it("tells full, partial and no abstention apart, in English and Chinese", () => {
    const measure = (answer: string, q = question) =>
      measureAnswer({ question: q, answer, contexts: [FOUNDING] }).abstention;
    expect(measure("The sources do not say who founded Lanting.")).toBe("full");
    expect(measure("I don't know.")).toBe("full");
    expect(measure("In 1784. The sources do not say who led the founders.")).toBe("partial");
    expect(measure("资料中没有提到澜汀的创建者。", "澜汀是谁创建的？")).toBe("full");
    expect(measure("我不知道。")).toBe("full");
    expect(measure("澜汀建于1784年。资料中没有提到创建者。", "澜汀是谁创建的？")).toBe("partial");
    expect(measure("Lanting was founded in 1784.")).toBe("none");
  });

  it("judges a declining sentence with a guessed figure as a claim", () => {
    const m = measureAnswer({
      question,
      answer: "I don't know, but it was probably founded in 1650.",
      contexts: [FOUNDING],
    });
    expect(m.abstention).toBe("none");
    expect(m.groundedness?.unsupported).toContain("1650");
    // A figure the contexts state is no guess.
    const honest = measureAnswer({
      question,
      answer: "I don't know who founded it; the sources only mention the move of 1784.",
      contexts: [FOUNDING],
    });
    expect(honest.abstention).toBe("full");
  });

  it("leaves abstaining sentences out of groundedness, as the gate does", () => {
    const m = measureAnswer({
      question,
      answer: "It was founded in 1784. The sources do not mention a mayor or a cathedral.",
      contexts: [FOUNDING],
    });
    expect(m.abstention).toBe("partial");
    expect(m.groundedness?.unsupported).toEqual([]);
    expect(m.groundedness?.supported_numbers).toBe(1);
  });

  it("takes the abstention patterns from the options", () => {
    const input = { question, answer: "No idea, sorry.", contexts: [FOUNDING] };
    expect(measureAnswer(input).abstention).toBe("none");
    expect(measureAnswer(input, { abstentionPatterns: ["\\bno idea\\b"] }).abstention).toBe("full");
  });

  it("notices a ground truth that itself declines", () => {
    const m = measureAnswer({
      question: "Who was mayor in 1900?",
      answer: "The sources do not say.",
      contexts: [FOUNDING],
      ground_truth: "The sources do not name a mayor.",
    });
    expect(m.ground_truth_abstains).toBe(false); // "name" is not among the patterns
    const n = measureAnswer({
      question: "Who was mayor in 1900?",
      answer: "The sources do not say.",
      contexts: [FOUNDING],
      ground_truth: "Not mentioned in the sources.",
    });
    expect(n.ground_truth_abstains).toBe(true);
    expect(n.ground_truth_coverage).toBeNull();
  });

  it("measures repetition on content-token 4-grams", () => {
    const sentence = "Salt merchants led by Wei Chenghai moved drying beds to the estuary. ";
    const once = measureAnswer({ question, answer: sentence, contexts: [] });
    const thrice = measureAnswer({ question, answer: sentence.repeat(3), contexts: [] });
    expect(once.repetition).toBe(0);
    // 9 tokens a sentence, 27 in all: 24 four-grams, of which only 9 differ (one per start
    // position in the sentence), so 15 repeat.
    expect(thrice.repetition).toBeCloseTo(15 / 24, 10);
    expect(measureAnswer({ question, answer: "  …  ", contexts: [] }).empty).toBe(true);
  });
});

describe("measureAnswer groundedness", () => {
  const QUAY =
    "Two years later, in 1786, they paid for the first stone quay, a wall of granite blocks 140 metres long.";
  const PORT =
    "Lanting Qiao International Airport, 28 km east of the centre, opened a new terminal in 2018.";

  it("penalises a year the contexts give to something else", () => {
    const right = measureAnswer({
      question: "?",
      answer: "The first stone quay, built in 1786, is 140 metres long.",
      contexts: [QUAY],
    });
    const wrong = measureAnswer({
      question: "?",
      answer: "The first stone quay, built in 1784, is 140 metres long.",
      contexts: [QUAY],
    });
    expect(right.attached_numbers.map((n) => n.verdict)).toEqual(["attached", "attached"]);
    // 1784 is stated nowhere: unstated, charged as four unsupported words (0.57 against 0.83).
    expect(wrong.attached_numbers.map((n) => n.verdict)).toEqual(["unstated", "attached"]);
    expect(wrong.groundedness_score as number).toBeLessThanOrEqual(
      (right.groundedness_score as number) * 0.7,
    );
  });

  it("charges an unsupported sentence by its words, not diluted by the supported ones", () => {
    // The second sentence adds it, is, busiest, province (4 words of 12) and 10 of the 15 word
    // pairs the context never writes together: cost 4 + 0.1 × 10 over √12, over SCORE_SCALE 4.
    const m = measureAnswer({
      question: "?",
      answer:
        "The airport opened a new terminal in 2018. It is the busiest airport in the province.",
      contexts: [PORT],
    });
    expect(m.word_support?.unsupported).toEqual(["it", "is", "busiest", "province"]);
    expect(m.groundedness_score).toBeCloseTo(Math.exp(-5 / Math.sqrt(12) / 4), 12);
  });
});
