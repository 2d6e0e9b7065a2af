import { describe, expect, it } from "vitest";
import {
  containsContentToken,
  contentTokens,
  extractNumbers,
  foldForSearch,
  isAscii,
} from "../text/index.js";
import { AnswerAnalysis } from "./analysis.js";
import type { EvaluatorInput } from "./schema.js";
import { seededRandom } from "../../test/support/seeded-random.js";

const WORDS = [
  "The",
  "harbour",
  "bridges",
  "opened",
  "in",
  "1869",
  "1,200",
  "3.5%",
  "4.2 million",
  "March 5, 2021",
  "2021-03-05",
  "No.",
  "5",
  "1.",
  "e.g.",
  "approx.",
  "it",
  "[1]",
  "[2]",
  "[n1]",
  "[1, 2]",
  "[doc.v2#1]",
  "[[1]2]",
  "【1】",
  "澜汀",
  "成立于1952年",
  "café",
  "１２０万",
  "\n",
  "\t",
  "?",
];

function input(answer: string): EvaluatorInput {
  return {
    conversation_id: "c",
    message_id: "m",
    retrieval_record: { id: "r" },
    retrieval_hits: [
      { node_id: "n1", content: "" },
      { node_id: "n2", content: "" },
    ],
    generation_record: { id: "g" },
    generation_output: { answer, citations: [] },
  };
}

describe("AnswerAnalysis, randomized", () => {
  it("reads each sentence's tokens and numbers in place as from its own text", () => {
    const random = seededRandom(5);
    const pick = () => WORDS[Math.floor(random() * WORDS.length)];
    let numbers = 0;
    for (let n = 0; n < 1500; n++) {
      const ascii = random() < 0.6;
      let answer = "";
      for (let i = 0, count = Math.floor(random() * 30); i < count; i++) {
        let word = pick() as string;
        while (ascii && !isAscii(word)) word = pick() as string;
        answer += word + (random() < 0.2 ? ". " : random() < 0.9 ? " " : "");
      }
      const analysis = new AnswerAnalysis(input(answer));
      for (const sentence of analysis.sentences) {
        expect(analysis.tokensOf(sentence), JSON.stringify(answer)).toEqual(
          contentTokens(sentence.plain),
        );
        const found = analysis.numbersOf(sentence);
        numbers += found.length;
        expect(found, JSON.stringify(answer)).toEqual(extractNumbers(sentence.plain));
      }
    }
    expect(numbers).toBeGreaterThan(1000);
  });
});

describe("AnswerAnalysis evidence, randomized", () => {
  it("finds a token in a hit exactly when the folded hit contains it", () => {
    const random = seededRandom(11);
    const words = [
      "Harbour",
      "harbour",
      "HARBOUR",
      "harbours",
      "Bridges",
      "bridge",
      "cities",
      "City",
      "the",
      "Tonnes",
      "tonne",
      "metro",
      "métro",
      "澜汀",
      "A380",
      "1869",
      "canal",
      "Canals",
      "x",
    ];
    const pick = () => words[Math.floor(random() * words.length)] as string;
    const separators = [" ", ", ", ". ", "-", "", "'s "];
    let found = 0;
    for (let n = 0; n < 2000; n++) {
      let content = "";
      for (let i = 0, count = Math.floor(random() * 12); i < count; i++) {
        content += pick() + separators[Math.floor(random() * separators.length)];
      }
      const analysis = new AnswerAnalysis({
        ...input(""),
        retrieval_hits: [{ node_id: "n1", content }],
      });
      const evidence = analysis.evidence([0]);
      const folded = foldForSearch(content);
      for (const token of contentTokens(words.join(" "))) {
        const expected = containsContentToken(folded, token);
        if (expected) found++;
        expect(evidence.has(token), JSON.stringify([content, token])).toBe(expected);
      }
    }
    expect(found).toBeGreaterThan(2000);
  });
});
