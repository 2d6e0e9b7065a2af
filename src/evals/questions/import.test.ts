import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { QuestionImportError, type RowError } from "./errors.js";
import { parseQuestionFile, questionFormatOf } from "./import.js";
import { QUESTION_LIMITS } from "./schema.js";

/** The QuestionImportError `run` throws; fails the test when it does not throw one. */
function importError(run: () => unknown): QuestionImportError {
  try {
    run();
  } catch (error) {
    if (QuestionImportError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a QuestionImportError");
}

function rowsOf(error: QuestionImportError): Pick<RowError, "row" | "field">[] {
  return error.rows.map(({ row, field }) => ({ row, field }));
}

describe("questionFormatOf", () => {
  it("reads the extension, case-insensitively", () => {
    expect(questionFormatOf("set.csv")).toBe("csv");
    expect(questionFormatOf("dir.v2/Set.JSON")).toBe("json");
    expect(questionFormatOf("set.jsonl")).toBe("jsonl");
    expect(questionFormatOf("set.ndjson")).toBe("jsonl");
  });

  it("rejects an unknown or missing extension, naming the file and the formats", () => {
    expect(() => questionFormatOf("set.xlsx")).toThrow(
      'cannot tell the format of "set.xlsx": expected a .csv, .json or .jsonl file',
    );
    expect(QuestionImportError.isInstance(importError(() => questionFormatOf("questions")))).toBe(
      true,
    );
  });
});

describe("parseQuestionFile: CSV", () => {
  it("reads seed 003's columns, with RFC 4180 quoting, CRLF and a BOM", () => {
    const csv =
      "\uFEFFquestion_type,question_text,ground_truth\r\n" +
      'FACTUAL,"When was the quay built, and by whom?","In 1786, by the ""salt merchants"".\nThe quay is 140 m long."\r\n' +
      "\r\n" +
      "inferential,为什么要修建新防洪堤？,因为2016年的洪水。\r\n";
    expect(parseQuestionFile(csv, "csv")).toEqual([
      {
        question_type: "FACTUAL",
        question_text: "When was the quay built, and by whom?",
        ground_truth: 'In 1786, by the "salt merchants".\nThe quay is 140 m long.',
      },
      {
        question_type: "INFERENTIAL",
        question_text: "为什么要修建新防洪堤？",
        ground_truth: "因为2016年的洪水。",
      },
    ]);
  });

  it("accepts the aliases question, answer, expected and type, and ignores unknown columns", () => {
    const csv = "id,Type,Question,Answer,notes\n1,factual,How long is the Tidewall?,7.4 km,x\n";
    expect(parseQuestionFile(csv, "csv")).toEqual([
      {
        question_type: "FACTUAL",
        question_text: "How long is the Tidewall?",
        ground_truth: "7.4 km",
      },
    ]);
    expect(parseQuestionFile("question,expected\nQ?,A\n", "csv")).toEqual([
      { question_type: "USER_DEFINED", question_text: "Q?", ground_truth: "A" },
    ]);
  });

  it("defaults an empty type to USER_DEFINED and an absent answer to empty", () => {
    expect(parseQuestionFile("question,type\nWhat is Lanting?,\n", "csv")).toEqual([
      { question_type: "USER_DEFINED", question_text: "What is Lanting?", ground_truth: "" },
    ]);
  });

  it("names every bad row, counting data rows from 1 after the header, and returns nothing", () => {
    const csv = [
      "question_type,question_text,ground_truth",
      "FACTUAL,Good question?,yes",
      "OPINION,Bad type?,x",
      "FACTUAL,,missing question",
      'FACTUAL,"Good question!",again',
      "FACTUAL,Too many,a,b",
      "FACTUAL,Another good one?,fine",
    ].join("\n");
    const error = importError(() => parseQuestionFile(csv, "csv"));
    expect(rowsOf(error)).toEqual([
      { row: 2, field: "question_type" },
      { row: 3, field: "question_text" },
      { row: 4, field: "question_text" },
      { row: 5, field: "(row)" },
    ]);
    expect(error.rows[0]?.message).toBe(
      '"OPINION" is not one of FACTUAL, INFERENTIAL, USER_DEFINED',
    );
    expect(error.rows[1]?.message).toBe("a non-empty question");
    expect(error.rows[2]?.message).toBe("duplicate of row 1");
    expect(error.rows[3]?.message).toContain("4 fields but the header has 3");
    expect(error.message).toMatch(/^4 invalid rows: row 2: question_type: "OPINION"/);
  });

  it("summarises the first five problems and counts the rest", () => {
    const csv = ["question,type", ...Array.from({ length: 8 }, (_, i) => `Q${i}?,BAD`)].join("\n");
    const error = importError(() => parseQuestionFile(csv, "csv"));
    expect(error.rows).toHaveLength(8);
    expect(error.rows.map((r) => r.row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(error.message).toMatch(/^8 invalid rows: row 1: .*row 5: [^;]*; and 3 more$/);
  });

  it("counts a multi-line quoted row as one row", () => {
    const csv = 'question,answer\n"a\nb?",x\nc?,y\n,z\n';
    expect(rowsOf(importError(() => parseQuestionFile(csv, "csv")))).toEqual([
      { row: 3, field: "question_text" },
    ]);
  });

  it("requires a header with a question column", () => {
    expect(() => parseQuestionFile("What is Lanting?,A city\n", "csv")).toThrow(
      'the first row must be a header with a question_text (or question) column; found: "What is Lanting?", "A city"',
    );
    expect(() => parseQuestionFile("question,question_text\na,b\n", "csv")).toThrow(
      'the header has two columns for question_text: "question" and "question_text"',
    );
  });

  it("names the row of broken quoting", () => {
    const error = importError(() =>
      parseQuestionFile('question,answer\nok?,fine\n"open quote,x\n', "csv"),
    );
    expect(error.rows).toEqual([
      {
        row: 2,
        field: "(row)",
        message: expect.stringContaining("not valid CSV: Quote Not Closed"),
      },
    ]);
  });

  it("rejects a header with no rows, and an empty file", () => {
    expect(() => parseQuestionFile("question,answer\n", "csv")).toThrow(
      "the file has a header but no questions",
    );
    expect(() => parseQuestionFile("", "csv")).toThrow("the file is empty");
    expect(() => parseQuestionFile(new Uint8Array([0xef, 0xbb, 0xbf, 0x0a]), "csv")).toThrow(
      "the file is empty",
    );
  });

  it("decodes UTF-8 bytes and names each row holding invalid UTF-8", () => {
    const good = new TextEncoder().encode('question,answer\n盐灯节?,十月\n"x\ny",z\n');
    expect(parseQuestionFile(good, "csv")[0]).toMatchObject({ question_text: "盐灯节?" });
    // Latin-1 "é" (0xE9) in the data rows 1 and 3; row 2 spans two lines.
    const bytes = Buffer.concat([
      Buffer.from("question,answer\nCaf"),
      Buffer.from([0xe9]),
      Buffer.from('?,x\n"two\nlines",y\nna'),
      Buffer.from([0xe9]),
      Buffer.from("ve?,z\n"),
    ]);
    const error = importError(() => parseQuestionFile(bytes, "csv"));
    expect(error.rows).toEqual([
      { row: 1, field: "(row)", message: "not valid UTF-8 (save the file as UTF-8)" },
      { row: 3, field: "(row)", message: "not valid UTF-8 (save the file as UTF-8)" },
    ]);
  });
});

describe("parseQuestionFile: JSON and JSONL", () => {
  it("reads a JSON array or {questions: [...]}, with aliases and any-case types", () => {
    const list = [
      { type: "factual", question: "How long is the Tidewall?", answer: "7.4 km", id: 3 },
      { question_text: "Why?", expected: "42", reference_context: "ctx" },
    ];
    const expected = [
      {
        question_type: "FACTUAL",
        question_text: "How long is the Tidewall?",
        ground_truth: "7.4 km",
      },
      {
        question_type: "USER_DEFINED",
        question_text: "Why?",
        ground_truth: "42",
        reference_context: "ctx",
      },
    ];
    expect(parseQuestionFile(JSON.stringify(list), "json")).toEqual(expected);
    expect(parseQuestionFile(JSON.stringify({ questions: list }), "json")).toEqual(expected);
  });

  it("takes text only: a number, a boolean or a NUL is named, in JSON, JSONL and CSV (issue 12)", () => {
    const list = [{ question: 123 }, { question: true }, { question: "Fine?", answer: 42 }];
    expect(importError(() => parseQuestionFile(JSON.stringify(list), "json")).rows).toEqual([
      { row: 1, field: "question_text", message: "expected text, got a number (123)" },
      { row: 2, field: "question_text", message: "expected text, got a boolean (true)" },
      { row: 3, field: "ground_truth", message: "expected text, got a number (42)" },
    ]);
    const nul = "contains a NUL character (\\u0000), which cannot be stored";
    const jsonl =
      '{"question":"Fine?"}\n{"question":"a\\u0000b"}\n{"question":"ok","x":{"k\\ud800":1}}\n';
    expect(importError(() => parseQuestionFile(jsonl, "jsonl")).rows).toEqual([
      { row: 2, field: "question", message: nul },
      { row: 3, field: "x", message: expect.stringMatching(/^a key contains a lone surrogate/) },
    ]);
    const csv = "question,answer\nFine?,yes\nBad\u0000one,no\n";
    expect(importError(() => parseQuestionFile(Buffer.from(csv), "csv")).rows).toEqual([
      { row: 2, field: "question_text", message: nul },
    ]);
  });

  it("numbers JSON rows by array index + 1 and names every bad one", () => {
    const list = [
      { question: "Fine?" },
      "just a string",
      { question: "Fine!" },
      { question: ["a", "list"] },
      { question: "x", question_text: "y" },
      { question: "  " },
    ];
    const error = importError(() => parseQuestionFile(JSON.stringify(list), "json"));
    expect(error.rows).toEqual([
      { row: 2, field: "(row)", message: "expected an object with a question_text field" },
      { row: 3, field: "question_text", message: "duplicate of row 1" },
      { row: 4, field: "question_text", message: "expected text, got a list" },
      {
        row: 5,
        field: "question_text",
        message: 'given twice, as "question" and "question_text"',
      },
      { row: 6, field: "question_text", message: "a non-empty question" },
    ]);
  });

  it("names a missing question as missing", () => {
    const error = importError(() => parseQuestionFile('[{"answer": "x"}]', "json"));
    expect(error.rows).toEqual([
      { row: 1, field: "question_text", message: "missing: expected a non-empty question" },
    ]);
  });

  it("rejects JSON that is not a list of questions, or not JSON at all", () => {
    expect(() => parseQuestionFile('{"items": []}', "json")).toThrow(
      'expected a JSON array of questions, or an object {"questions": [...]}',
    );
    expect(() => parseQuestionFile("[]", "json")).toThrow("the file holds no questions");
    const broken = importError(() => parseQuestionFile('[\n{"question": "a"},\n{oops}\n]', "json"));
    expect(broken.rows).toEqual([]);
    expect(broken.message).toMatch(/^not valid JSON: .*line 3/);
  });

  it("numbers JSONL rows by line, skipping blank lines, and names every bad line", () => {
    const jsonl = [
      '{"question": "One?", "answer": "1"}',
      "",
      '{"question": "Two?"',
      '{"question": "Three?", "type": "nonsense"}',
      '{"question": "Four?"}\r',
    ].join("\n");
    const error = importError(() => parseQuestionFile(jsonl, "jsonl"));
    expect(rowsOf(error)).toEqual([
      { row: 3, field: "(row)" },
      { row: 4, field: "question_type" },
    ]);
    expect(error.rows[0]?.message).toMatch(/^not JSON: /);
    const good = parseQuestionFile('{"question": "One?"}\r\n\r\n{"question": "Two?"}\r\n', "jsonl");
    expect(good.map((q) => q.question_text)).toEqual(["One?", "Two?"]);
  });

  it("names the JSONL line holding invalid UTF-8", () => {
    const bytes = Buffer.concat([
      Buffer.from('{"question": "One?"}\n{"question": "Caf'),
      Buffer.from([0xe9]),
      Buffer.from('?"}\n'),
    ]);
    expect(rowsOf(importError(() => parseQuestionFile(bytes, "jsonl")))).toEqual([
      { row: 2, field: "(row)" },
    ]);
  });
});

describe("parseQuestionFile: relevant ids and reference contexts (issue 26 §4)", () => {
  it("reads a list from a JSON list, a CSV cell's JSON text, or a CSV cell holding one id", () => {
    const csv = [
      "question,relevant_ids,reference_contexts",
      "One?,faq-1,",
      'Two?,"[""docs/a.md"", ""h1#0""]","[""A passage, with a comma.""]"',
    ].join("\n");
    expect(
      parseQuestionFile(csv, "csv").map((q) => [q.relevant_ids, q.reference_contexts]),
    ).toEqual([
      [["faq-1"], undefined],
      [["docs/a.md", "h1#0"], ["A passage, with a comma."]],
    ]);
    const jsonl = '{"question":"Three?","relevant_ids":[" faq-3 "],"reference_contexts":["P."]}\n';
    expect(parseQuestionFile(jsonl, "jsonl")[0]).toMatchObject({
      relevant_ids: ["faq-3"],
      reference_contexts: ["P."],
    });
  });

  it("names the row and field of a list that is not one of strings, or too long", () => {
    const json = JSON.stringify([
      { question: "a?", relevant_ids: [1] },
      { question: "b?", reference_contexts: "[not json" },
      { question: "c?", relevant_ids: Array.from({ length: 101 }, (_, i) => `d${i}`) },
      { question: "d?", relevant_ids: { id: "x" } },
    ]);
    const error = importError(() => parseQuestionFile(json, "json"));
    expect(error.rows).toEqual([
      { row: 1, field: "relevant_ids", message: "item 1: expected a string" },
      {
        row: 2,
        field: "reference_contexts",
        message: expect.stringMatching(/^not a JSON list of passages/),
      },
      { row: 3, field: "relevant_ids", message: expect.stringMatching(/100/) },
      { row: 4, field: "relevant_ids", message: "expected a list of id strings" },
    ]);
  });
});

describe("parseQuestionFile: limits", () => {
  it("rejects a file over the byte limit before reading it", () => {
    const big = new Uint8Array(QUESTION_LIMITS.importBytes + 1);
    expect(() => parseQuestionFile(big, "csv")).toThrow(
      `an import may be at most ${QUESTION_LIMITS.importBytes} bytes`,
    );
  });

  it("rejects more rows than a set may hold", () => {
    const rows = Array.from({ length: QUESTION_LIMITS.questionsPerSet + 1 }, (_, i) => `Q${i}?`);
    expect(() => parseQuestionFile(["question", ...rows].join("\n"), "csv")).toThrow(
      `the file holds ${QUESTION_LIMITS.questionsPerSet + 1} rows; an import may hold at most ${QUESTION_LIMITS.questionsPerSet}`,
    );
  });

  it("names a question over the length limit", () => {
    const long = "x".repeat(QUESTION_LIMITS.questionChars + 1);
    expect(rowsOf(importError(() => parseQuestionFile(`question\nok?\n${long}\n`, "csv")))).toEqual(
      [{ row: 2, field: "question_text" }],
    );
  });
});

describe("examples/questions", () => {
  const examples = new URL("../../../examples/questions/", import.meta.url);

  it.each(["lanting.csv", "lanting.json", "lanting.jsonl", "lanting-relevant.jsonl"])(
    "%s imports cleanly",
    (name) => {
      const bytes = readFileSync(new URL(name, examples));
      const questions = parseQuestionFile(bytes, questionFormatOf(name));
      expect(questions.length).toBeGreaterThan(1);
      for (const q of questions) expect(q.ground_truth).not.toBe("");
    },
  );
});
