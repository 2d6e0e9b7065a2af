import { describe, expect, it } from "vitest";
import { answersFormatOf, parseAnswersFile } from "./answers-file";
import { rowOf } from "./arena-form";

describe("parseAnswersFile", () => {
  it("reads JSONL with each row's line, skipping blank lines", () => {
    const outcome = parseAnswersFile(
      '{"question":"Q1","answer":"A1"}\n\n{"question":"Q2","answer":"A2","contexts":["c"]}\n',
      "jsonl",
    );
    expect(outcome).toEqual({
      ok: true,
      file: {
        rows: [
          { question: "Q1", answer: "A1" },
          { question: "Q2", answer: "A2", contexts: ["c"] },
        ],
        lines: [1, 3],
      },
    });
  });

  it("names every line that is not a JSON object, and keeps nothing", () => {
    const outcome = parseAnswersFile('{"question":"Q1","answer":"A1"}\n[1]\n{oops\n', "jsonl");
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.issues.map((i) => i.line)).toEqual([2, 3]);
    expect(outcome.issues[0]!.message).toBe("not a JSON object");
  });

  it("reads formula-like CSV cells as the server does: the apostrophe an export added comes off", () => {
    const csv = parseAnswersFile("question,answer\n'=1+1?,'-2\n'tis?,''@x\n", "csv");
    expect(csv).toEqual({
      ok: true,
      file: {
        rows: [
          { question: "=1+1?", answer: "-2" },
          { question: "'tis?", answer: "'@x" },
        ],
        lines: [2, 3],
      },
    });
  });

  it("reads a JSON array by item and a CSV by line (the header is line 1), lists as JSON cells", () => {
    const json = parseAnswersFile('[{"question":"Q","answer":"A"}]', "json");
    expect(json.ok && json.file.lines).toEqual([1]);
    expect(parseAnswersFile('{"question":"Q"}', "json").ok).toBe(false);
    const csv = parseAnswersFile(
      'Question,Answer,Contexts\nQ1,A1,"[""ctx one""]"\nQ2,"A, two",\n',
      "csv",
    );
    expect(csv).toEqual({
      ok: true,
      file: {
        rows: [
          { question: "Q1", answer: "A1", contexts: ["ctx one"] },
          // An empty list cell is an empty list, as the server reads it (the API refuses "").
          { question: "Q2", answer: "A, two", contexts: [] },
        ],
        lines: [2, 3],
      },
    });
  });

  it("refuses an empty file as a whole: no line, and its words coded for the reader's language", () => {
    expect(parseAnswersFile("\n", "jsonl")).toEqual({
      ok: false,
      issues: [
        { line: null, code: "file.no_answers", params: {}, message: "no answers in the file" },
      ],
    });
  });
});

describe("rowOf and answersFormatOf", () => {
  it("maps the server's row number back to the file's line", () => {
    const rows = [
      { question: "Q1", answer: "A1" },
      { question: "Q2", answer: "A2" },
    ];
    expect(rowOf({ rows, lines: [1, 3] }, 2)).toBe(3);
    expect(answersFormatOf("run.JSONL")).toBe("jsonl");
    expect(answersFormatOf("run.txt")).toBeUndefined();
  });
});
