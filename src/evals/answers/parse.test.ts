import { describe, expect, it } from "vitest";
import { QuestionImportError } from "../questions/index.js";
import { matchAnswersToSet } from "./match.js";
import { itemRetrieval } from "../runs/retrieval.js";
import { parseAnswersFile, questionsOfAnswers } from "./parse.js";
import { type AnswerLine, suppliedAnswerOf } from "./schema.js";

const jsonl = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).join("\n") + "\n";

function importError(run: () => unknown): QuestionImportError {
  try {
    run();
  } catch (error) {
    if (QuestionImportError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a QuestionImportError");
}

describe("parseAnswersFile", () => {
  it("reads JSONL answers with several references, contexts and citations", () => {
    const lines = parseAnswersFile(
      jsonl([
        {
          question: "When did Line 1 open?",
          answer: "In 2009 [n1].",
          ground_truths: ["18 September 2009", "2009"],
          contexts: [{ node_id: "n1", content: "Line 1 opened on 18 September 2009." }],
          citations: ["n1"],
        },
        { question: "澜汀大学成立于哪一年？", answer: "1952年。", ground_truth: "1952年" },
      ]),
      "jsonl",
    );
    expect(lines).toHaveLength(2);
    expect(lines[0]?.citations).toEqual(["n1"]);
    expect(questionsOfAnswers(lines)).toEqual([
      {
        question_type: "USER_DEFINED",
        question_text: "When did Line 1 open?",
        ground_truth: "18 September 2009",
        ground_truths: ["18 September 2009", "2009"],
      },
      {
        question_type: "USER_DEFINED",
        question_text: "澜汀大学成立于哪一年？",
        ground_truth: "1952年",
      },
    ]);
  });

  it("reads what retrieval should have found, and keeps each context's document id (issue 26 §4)", () => {
    const lines = parseAnswersFile(
      jsonl([
        {
          question: "How much is the ferry?",
          answer: "6 yuan.",
          relevant_ids: ["faq-ferry-fare"],
          contexts: [
            { node_id: "x#0", content: "Trams run all night.", document_id: "faq-trams" },
            { node_id: "y#0", content: "A crossing costs 6 yuan.", document_id: "faq-ferry-fare" },
          ],
        },
        { question: "When?", answer: "Soon.", reference_contexts: "Line 1 opened in 2009." },
      ]),
      "jsonl",
    );
    expect(questionsOfAnswers(lines).map((q) => [q.relevant_ids, q.reference_contexts])).toEqual([
      [["faq-ferry-fare"], undefined],
      [undefined, ["Line 1 opened in 2009."]],
    ]);
    const supplied = suppliedAnswerOf(lines[0] as AnswerLine);
    expect(supplied.contexts.map((c) => c.document_id)).toEqual(["faq-trams", "faq-ferry-fare"]);
    expect(itemRetrieval(lines[0] as AnswerLine, supplied.contexts, 5)).toMatchObject({
      matched: [{ id: "faq-ferry-fare", rank: 2 }],
      mrr: 0.5,
    });
    const bad = importError(() =>
      parseAnswersFile(jsonl([{ question: "a?", answer: "b", relevant_ids: [true] }]), "jsonl"),
    );
    expect(bad.rows).toEqual([
      { row: 1, field: "relevant_ids", message: "item 1: expected a string" },
    ]);
  });

  it("reads CSV list cells as JSON lists and a plain cell as one item", () => {
    const csv =
      "question,answer,ground_truths,contexts,citations\n" +
      '"Who founded it?","Ada, in 1901.","[""Ada"",""Ada King""]","The founder was Ada.","c1"\n';
    const [line] = parseAnswersFile(csv, "csv");
    expect(line).toMatchObject({
      question: "Who founded it?",
      answer: "Ada, in 1901.",
      ground_truths: ["Ada", "Ada King"],
      contexts: ["The founder was Ada."],
      citations: ["c1"],
    });
  });

  it("names every bad line and field, and returns nothing", () => {
    const error = importError(() =>
      parseAnswersFile(
        jsonl([
          { question: "Q1?", answer: "A1" },
          { question: "Q2?" },
          { question: "Q3?", answer: "A3", ground_truths: "[1, 2" },
          { question: "q1", answer: "again" },
        ]) + "{not json\n",
        "jsonl",
      ),
    );
    expect(error.rows.map((r) => [r.row, r.field])).toEqual([
      [2, "answer"],
      [3, "ground_truths"],
      [4, "question"],
      [5, "(row)"],
    ]);
    expect(error.rows[0]?.message).toMatch(/^missing/);
    expect(error.rows[2]?.message).toBe("the same question as row 1");
  });
});

it("refuses a NUL character, which the database cannot store, by line and field", () => {
  const error = importError(() =>
    parseAnswersFile(
      jsonl([
        { question: "Q1?", answer: "a\u0000b" },
        { question: "Q2?", answer: "ok", contexts: ["c\u0000"] },
      ]),
      "jsonl",
    ),
  );
  expect(error.rows.map((r) => [r.row, r.field])).toEqual([
    [1, "answer"],
    [2, "contexts.0"],
  ]);
});

describe("matchAnswersToSet", () => {
  const questions = [
    { id: "q1", question_text: "When did Line 1 open?", position: 0 },
    { id: "q2", question_text: "Who founded it?", position: 1 },
  ];
  const lines = parseAnswersFile(
    jsonl([
      { question: "who founded it", answer: "Ada." },
      { question: "When did Line 1 open?", answer: "2009", contexts: ["Line 1: 2009."] },
    ]),
    "jsonl",
  );

  it("pairs answers with the set's questions by normalized text", () => {
    const matched = matchAnswersToSet(questions, lines);
    expect(matched.get("q2")?.answer).toBe("Ada.");
    expect(matched.get("q1")?.contexts).toEqual([{ node_id: "c1", content: "Line 1: 2009." }]);
  });

  it("names an answer to a question outside the set, and a question left unanswered", () => {
    const extra = parseAnswersFile(jsonl([{ question: "Elsewhere?", answer: "x" }]), "jsonl");
    expect(importError(() => matchAnswersToSet(questions, [...lines, ...extra])).rows).toEqual([
      { row: 3, field: "question", message: "not a question of the set" },
    ]);
    expect(importError(() => matchAnswersToSet(questions, lines.slice(0, 1))).message).toMatch(
      /1 question\(s\) of the set have no answer: #1 "When did Line 1 open\?"/,
    );
  });
});
