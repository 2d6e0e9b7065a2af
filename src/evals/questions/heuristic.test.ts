import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { chunkLanguage } from "./chunks.js";
import { heuristicQuestions } from "./heuristic.js";

const corpus = new URL("../../../examples/corpus/", import.meta.url);

/** Paragraph `n` (1-based, headings excluded) of examples/corpus/<name>.md. */
function paragraph(name: string, n: number): string {
  const paragraphs = readFileSync(new URL(`${name}.md`, corpus), "utf8")
    .split(/\n\s*\n/)
    .filter((p) => !p.startsWith("#"));
  return paragraphs[n - 1] as string;
}

const both = ["FACTUAL", "INFERENTIAL"] as const;

describe("heuristicQuestions (English)", () => {
  const chunk = paragraph("lanting-history", 3);

  it("asks for the number, date or name a sentence states; the sentence is the ground truth", () => {
    const questions = heuristicQuestions(chunk, { types: both, language: "en" });
    expect(questions).toContainEqual({
      question_type: "FACTUAL",
      question_text:
        "Driven by a dry north wind, the Great Fire burned for two days and destroyed how many buildings, nearly all of them timber?",
      ground_truth:
        "Driven by a dry north wind, the Great Fire burned for two days and destroyed 412 buildings, nearly all of them timber.",
    });
    expect(questions).toContainEqual(
      expect.objectContaining({
        question_text:
          "On the night of which date a fire started in a rope store on Lower Quay Street?",
      }),
    );
    for (const q of questions) {
      expect(q.question_text.endsWith("?")).toBe(true);
      if (q.question_type === "FACTUAL") expect(chunk).toContain(q.ground_truth);
    }
  });

  it("links two sentences of the chunk for an inferential question", () => {
    const questions = heuristicQuestions(chunk, { types: ["INFERENTIAL"], language: "en" });
    expect(questions.length).toBeGreaterThan(0);
    for (const q of questions) {
      expect(q.question_type).toBe("INFERENTIAL");
      expect(q.question_text).toMatch(
        /^How are .+ (related|connected), according to the document\?$/,
      );
      // The ground truth is two sentences of the chunk.
      const [first, second] = q.ground_truth.split(/(?<=\.) /);
      expect(chunk).toContain(first);
      expect(chunk).toContain(second);
    }
  });

  it("reads a year as a year and a comma-grouped count as a count", () => {
    const questions = heuristicQuestions(paragraph("lanting-transport", 1), {
      types: ["FACTUAL"],
      language: "en",
    }).map((q) => q.question_text);
    expect(questions).toContain(
      "Public transport in Lanting started with horse-drawn trams in which year?",
    );
    const bridge = heuristicQuestions(paragraph("lanting-transport", 2), {
      types: ["FACTUAL"],
      language: "en",
    }).map((q) => q.question_text);
    expect(bridge).toContain(
      "A second crossing, the Saltgate Tunnel, opened in 1997 and carries about how many vehicles a day?",
    );
    // "It is 1,340 metres long" leans on the sentence before it: no question alone.
    expect(bridge.some((q) => q.startsWith("It "))).toBe(false);
  });

  it("gives nothing for a chunk without facts to ask about", () => {
    expect(
      heuristicQuestions("Hello there. This is fine.", { types: both, language: "en" }),
    ).toEqual([]);
  });
});

describe("heuristicQuestions (Chinese)", () => {
  const chunk = paragraph("lanting-flood-2016", 1);

  it("asks with 多少, 哪一年 and 哪一天 and ends with a full-width question mark", () => {
    const questions = heuristicQuestions(chunk, { types: both, language: chunkLanguage(chunk) });
    expect(questions).toContainEqual({
      question_type: "FACTUAL",
      question_text:
        "2016年7月12日，受台风“白鹭”和天文大潮共同影响，玉江水位在凌晨突破历史最高纪录，达到海拔多少米？",
      ground_truth:
        "2016年7月12日，受台风“白鹭”和天文大潮共同影响，玉江水位在凌晨突破历史最高纪录，达到海拔6.3米。",
    });
    expect(questions.map((q) => q.question_text)).toContain(
      "建于哪一年的防潮墙在老码头和下码头两处被海水漫过，低洼城区大面积被淹？",
    );
    for (const q of questions) expect(q.question_text.endsWith("？")).toBe(true);
  });

  it("links two years for an inferential question", () => {
    const festivals = paragraph("lanting-festivals", 1);
    const questions = heuristicQuestions(festivals, { types: ["INFERENTIAL"], language: "zh" });
    expect(questions[0]).toEqual({
      question_type: "INFERENTIAL",
      question_text: "1790年和2023年发生的事情之间有什么联系？",
      ground_truth: expect.stringContaining("盐灯节始于1790年"),
    });
  });
});

describe("heuristicQuestions: determinism", () => {
  it("gives the same questions for the same chunk, every time", () => {
    const chunk = paragraph("lanting-transport", 3);
    const first = heuristicQuestions(chunk, { types: both, language: "en" });
    expect(first.length).toBeGreaterThan(2);
    expect(heuristicQuestions(chunk, { types: both, language: "en" })).toEqual(first);
  });

  it("interleaves two factual questions with one inferential", () => {
    const types = heuristicQuestions(paragraph("lanting-history", 3), {
      types: both,
      language: "en",
    })
      .slice(0, 3)
      .map((q) => q.question_type);
    expect(types).toEqual(["FACTUAL", "FACTUAL", "INFERENTIAL"]);
  });
});
