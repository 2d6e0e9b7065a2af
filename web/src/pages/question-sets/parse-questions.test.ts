import { describe, expect, it } from "vitest";
import { wordMessage } from "../../../../src/text/user-messages";
import { formatOfFile, parseQuestionFile } from "./parse-questions";
import {
  parseQuestionFile as serverParse,
  QuestionImportError,
} from "../../../../src/evals/questions/index";

describe("parseQuestionFile", () => {
  it("reads CSV with the server's column names and aliases", () => {
    const csv =
      'question,answer,type\nWhen did Line 1 open?,18 September 2009,factual\n"Why, then?","Because\nof salt",INFERENTIAL\n';
    expect(parseQuestionFile(csv, "csv")).toEqual({
      ok: true,
      questions: [
        {
          question_type: "FACTUAL",
          question_text: "When did Line 1 open?",
          ground_truth: "18 September 2009",
          reference_context: null,
        },
        {
          question_type: "INFERENTIAL",
          question_text: "Why, then?",
          ground_truth: "Because\nof salt",
          reference_context: null,
        },
      ],
    });
  });

  it("reads relevant_ids and reference_contexts as the server does: a JSON list, or one CSV item", () => {
    const csv = [
      "question,relevant_ids,reference_contexts",
      "One?,faq-1,",
      'Two?,"[""docs/a.md"", "" h1#0 ""]","[""A passage, with a comma.""]"',
    ].join("\n");
    const parsed = parseQuestionFile(csv, "csv");
    expect(
      parsed.ok && parsed.questions.map((q) => [q.relevant_ids, q.reference_contexts]),
    ).toEqual([
      [["faq-1"], undefined],
      [["docs/a.md", "h1#0"], ["A passage, with a comma."]],
    ]);
    const bad = parseQuestionFile('{"question":"a?","relevant_ids":[1]}\n', "jsonl");
    expect(bad).toEqual({
      ok: false,
      issues: [
        {
          line: 1,
          unit: "line",
          field: "relevant_ids",
          code: "file.list_item_not_text",
          params: { index: 1 },
          message: "item 1: expected a string",
        },
      ],
    });
  });

  it("reads formula-like cells as ragjudge's CSV export wrote them: its added apostrophe comes off", () => {
    // What the server's question-set export writes for =HYPERLINK(...), -2 and '=x (issue 22 §7).
    const csv = `question_text,ground_truth\r\n"'=HYPERLINK(""http://x"")",'-2\r\n'tis?,''=x\r\n`;
    expect(parseQuestionFile(csv, "csv")).toEqual({
      ok: true,
      questions: [
        {
          question_type: "USER_DEFINED",
          question_text: '=HYPERLINK("http://x")',
          ground_truth: "-2",
          reference_context: null,
        },
        {
          question_type: "USER_DEFINED",
          question_text: "'tis?",
          ground_truth: "'=x",
          reference_context: null,
        },
      ],
    });
  });

  it("names every bad CSV row by its file line, counting quoted line breaks, and returns no question", () => {
    const csv = [
      "question_text,ground_truth,question_type",
      '"A question that spans',
      'two lines",x,FACTUAL',
      ",empty question,FACTUAL",
      "Good?,yes,SOMETIMES",
      "A question that spans two lines,dup,FACTUAL",
      "A question that spans\ttwo lines?,dup,FACTUAL",
    ].join("\n");
    const outcome = parseQuestionFile(csv, "csv");
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.issues.map((i) => [i.line, i.field])).toEqual([
      [4, "question_text"],
      [5, "question_type"],
      [6, "question_text"],
      [7, "question_text"],
    ]);
    expect(outcome.issues[3]?.message).toBe("repeats the question on line 2");
    // Each problem is a code with its params, which the form words in its language.
    expect(outcome.issues.map((i) => wordMessage(i, "zh"))).toEqual([
      "问题为空",
      "“SOMETIMES”不是 FACTUAL, INFERENTIAL, USER_DEFINED 之一",
      "与第 2 行的问题重复",
      "与第 2 行的问题重复",
    ]);
    expect(outcome.issues.map((i) => wordMessage(i, "en"))).toEqual(
      outcome.issues.map((i) => i.message),
    );
  });

  it("words a problem of the whole file, and of a list's items, in Chinese", () => {
    const empty = parseQuestionFile("question\n", "csv");
    expect(empty.ok ? [] : empty.issues.map((i) => [i.unit, wordMessage(i, "zh")])).toEqual([
      ["file", "文件中没有问题"],
    ]);
    const list = parseQuestionFile('{"question":"a?","relevant_ids":{"a":1}}\n', "jsonl");
    expect(list.ok ? [] : list.issues.map((i) => [i.message, wordMessage(i, "zh")])).toEqual([
      ["expected a list of id strings", "应为编号文本的列表"],
    ]);
    const typed = parseQuestionFile('{"question":"a?","ground_truth":12}\n', "jsonl");
    expect(typed.ok ? [] : typed.issues.map((i) => [i.message, wordMessage(i, "zh")])).toEqual([
      ["expected text, got a number (12)", "应为文本，实际是数字（12）"],
    ]);
  });

  it("asks for a question column when the header has none", () => {
    const outcome = parseQuestionFile("q,a\nx,y\n", "csv");
    expect(outcome).toMatchObject({ ok: false, issues: [{ line: 1, field: "(header)" }] });
  });

  it("names JSONL lines and JSON items", () => {
    const jsonl = '{"question":"a"}\n\nnot json\n["x"]\n{"question_text":"b","ground_truth":3}\n';
    const outcome = parseQuestionFile(jsonl, "jsonl");
    expect(outcome.ok ? [] : outcome.issues.map((i) => [i.unit, i.line, i.field])).toEqual([
      ["line", 3, "(row)"],
      ["line", 4, "(row)"],
      ["line", 5, "ground_truth"],
    ]);
    const json = JSON.stringify({ questions: [{ question: "a" }, { question: "" }] });
    const bad = parseQuestionFile(json, "json");
    expect(bad.ok ? [] : bad.issues.map((i) => [i.unit, i.line])).toEqual([["item", 2]]);
    expect(parseQuestionFile('[{"question":"a"}]', "json")).toMatchObject({
      ok: true,
      questions: [{ question_text: "a" }],
    });
  });

  it("refuses an empty file and a file with no questions", () => {
    expect(parseQuestionFile("\uFEFF  ", "csv")).toMatchObject({
      ok: false,
      issues: [{ unit: "file" }],
    });
    expect(parseQuestionFile("question\n", "csv")).toMatchObject({
      ok: false,
      issues: [{ message: "the file holds no questions" }],
    });
  });
});

describe("formatOfFile", () => {
  it("tells the format by extension", () => {
    expect(formatOfFile("Q.CSV")).toBe("csv");
    expect(formatOfFile("a.ndjson")).toBe("jsonl");
    expect(formatOfFile("a.txt")).toBeUndefined();
  });
});

describe("parseQuestionFile agrees with the server's import", () => {
  // The server's parser, run on the same text: what parses here is what the server saves.
  const onServer = (text: string, format: "csv" | "jsonl") => {
    try {
      return { ok: true, types: serverParse(text, format).map((q) => q.question_type) };
    } catch (error) {
      if (!QuestionImportError.isInstance(error)) throw error;
      return { ok: false, messages: error.rows.map((r) => r.message) };
    }
  };
  const inBrowser = (text: string, format: "csv" | "jsonl") => {
    const parsed = parseQuestionFile(text, format);
    return parsed.ok
      ? { ok: true, types: parsed.questions.map((q) => q.question_type) }
      : { ok: false, messages: parsed.issues.map((i) => i.message) };
  };

  it.each([
    [
      "a type written by hand",
      "question,type\nOne?,user defined\nTwo?,Factual\nThree?,  \n",
      "csv",
    ],
    ["an unknown type", "question,type\nOne?,opinion\n", "csv"],
    ["a list item holding NUL", '{"question":"a?","relevant_ids":["x\\u0000"]}\n', "jsonl"],
    ["a list that is not a list", '{"question":"a?","reference_contexts":{"a":1}}\n', "jsonl"],
  ] as const)("on %s", (_, text, format) => {
    expect(inBrowser(text, format)).toEqual(onServer(text, format));
  });
});
