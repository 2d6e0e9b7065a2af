import { describe, expect, it } from "vitest";
import { parseQuestionFile as inBrowser } from "./parse-questions";
import {
  parseQuestionFile as onServer,
  QuestionImportError,
} from "../../../../src/evals/questions/index";

// The same files, as bytes, through the server's import (what the API and the CLI accept) and the
// web app's FileUploadParser (what the browser loads into the table): the same questions, or the
// same bad rows with the same fields and reasons. The browser counts CSV rows by the file's line,
// so each case gives the lines it must name; and it words three reasons for a person at a form.

type Format = "csv" | "json" | "jsonl";

/** The server's reason, as the browser words it: row numbers become the file's lines. */
const BROWSER_WORDS: [RegExp, (line: number) => string][] = [
  [
    /^a non-empty question$|^missing: expected a non-empty question$/,
    () => "the question is empty",
  ],
  [/^duplicate of row \d+$/, (earlier) => `repeats the question on line ${earlier}`],
  [/^the file has a header but no questions$/, () => "the file holds no questions"],
];

interface Case {
  name: string;
  format: Format;
  file: string | Uint8Array;
  /** For a refused file: the lines the browser names, in order (1 for the whole file). */
  lines?: number[];
  /** For a duplicate: the line of the row it repeats. */
  earlierLine?: number;
}

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...Buffer.from(p)] : p)));

const CASES: Case[] = [
  {
    name: "CSV with a BOM, CRLF, quoted commas, quotes and line breaks",
    format: "csv",
    file:
      "\uFEFFquestion_type,question_text,ground_truth\r\n" +
      'FACTUAL,"When was the quay built, and by whom?","In 1786, by the ""salt merchants"".\nIt is 140 m long."\r\n' +
      "\r\n" +
      "inferential,为什么要修建新防洪堤？,因为2016年的洪水。\r\n",
  },
  {
    name: "CSV cells ragjudge's export made spreadsheet-safe, and unknown columns",
    format: "csv",
    file: `id,question_text,ground_truth,notes\r\n1,"'=HYPERLINK(""http://x"")",'-2,x\r\n2,'tis?,''=x,y\r\n`,
  },
  {
    name: "CSV lists: a JSON list in a cell, or one item",
    format: "csv",
    file: 'question,relevant_ids,reference_contexts\nOne?,faq-1,\nTwo?,"[""a.md"", "" h1#0 ""]","[""A, b.""]"\n',
  },
  {
    name: "CSV bad rows after a row spanning lines",
    format: "csv",
    file: [
      "question_text,ground_truth,question_type",
      '"A question that spans',
      'two lines",x,FACTUAL',
      ",empty question,FACTUAL",
      "",
      "Good?,yes,SOMETIMES",
      "A question that spans two lines,dup,FACTUAL",
      "Too many,a,FACTUAL,b",
      "Bad\u0000one,no,",
    ].join("\n"),
    lines: [4, 6, 7, 8, 9],
    earlierLine: 2,
  },
  {
    name: "CSV with broken quoting",
    format: "csv",
    file: 'question,answer\nok?,fine\n"open quote,x\n',
    lines: [3],
  },
  {
    name: "CSV with invalid UTF-8 in a row spanning two lines",
    format: "csv",
    file: bytes('question,answer\nok?,x\n"two\nlin', [0xe9], 'es",y\n'),
    lines: [4],
  },
  { name: "CSV without a question column", format: "csv", file: "q,a\nx,y\n", lines: [1] },
  { name: "CSV with a header only", format: "csv", file: "question\n", lines: [1] },
  {
    name: "JSONL with blank lines, CRLF, and bad lines",
    format: "jsonl",
    file: '{"question":"a?"}\r\n\r\nnot json\n["x"]\n{"question_text":"b?","ground_truth":3}\n{"question":"c?","relevant_ids":[1]}\n{"question":"A?"}\n',
    lines: [3, 4, 5, 6, 7],
    earlierLine: 1,
  },
  {
    name: "JSONL with a lone surrogate and a type written by hand",
    format: "jsonl",
    file: '{"question":"ok?","type":"user defined"}\n{"question":"x\\ud800?"}\n',
    lines: [2],
  },
  {
    name: "a JSON export with several references",
    format: "json",
    file: JSON.stringify({
      questions: [
        { question_text: "Why?", ground_truth: "A", ground_truths: ["A", "B"] },
        { question: "How long?", answer: "7.4 km", type: "factual", reference_context: "ctx" },
      ],
    }),
  },
  {
    name: "JSON items that are not questions",
    format: "json",
    file: JSON.stringify([
      { question: "Fine?" },
      "just a string",
      { question: "" },
      { answer: "no question" },
      { question: "x", question_text: "y" },
      { question: "c?", relevant_ids: Array.from({ length: 101 }, (_, i) => `d${i}`) },
    ]),
    lines: [2, 3, 4, 5, 6],
  },
  {
    name: "JSON that is not JSON",
    format: "json",
    file: '[\n{"question": "a"},\n{oops}\n]',
    lines: [1],
  },
  { name: "an empty file", format: "csv", file: bytes([0xef, 0xbb, 0xbf], "\n"), lines: [1] },
];

function serverOutcome(file: string | Uint8Array, format: Format) {
  try {
    return { ok: true as const, questions: onServer(file, format) };
  } catch (error) {
    if (!QuestionImportError.isInstance(error)) throw error;
    return { ok: false as const, error };
  }
}

describe("the browser reads a question file exactly as the server imports it", () => {
  it.each(CASES)("$name", ({ file, format, lines, earlierLine }) => {
    const server = serverOutcome(file, format);
    const browser = inBrowser(file, format);
    if (server.ok) {
      expect(lines).toBeUndefined();
      expect(browser).toEqual({
        ok: true,
        questions: server.questions.map((q) => ({
          ...q,
          reference_context: q.reference_context ?? null,
        })),
      });
      return;
    }
    if (browser.ok) throw new Error(`the browser loaded what the server refused: ${server.error}`);
    expect(browser.issues.map((i) => i.line)).toEqual(lines);
    // A refused file: one issue for the file, worded as the server's message.
    const serverRows =
      server.error.rows.length > 0
        ? server.error.rows.map(({ field, message }) => ({ field, message }))
        : [{ field: browser.issues[0]?.field, message: server.error.message }];
    const inBrowserWords = serverRows.map(({ field, message }) => {
      const words = BROWSER_WORDS.find(([server]) => server.test(message));
      return { field, message: words ? words[1](earlierLine ?? 0) : message };
    });
    expect(browser.issues.map(({ field, message }) => ({ field, message }))).toEqual(
      inBrowserWords,
    );
  });
});
