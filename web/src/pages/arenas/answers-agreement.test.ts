import { describe, expect, it } from "vitest";
import { parseAnswersFile as inBrowser } from "./answers-file";
import { rowOf } from "./arena-form";
import {
  AnswerLineSchema,
  parseAnswersFile as onServer,
  validateAnswerLines,
} from "../../../../src/evals/answers/index";
import { QuestionImportError } from "../../../../src/evals/questions/index";

// The same answers files, as text or bytes, through the server's reader (`ragjudge eval --answers`)
// and the new-arena form's: the same answers, or the same bad rows with the same fields and
// reasons. What the browser sends for a good file is what the API reads into the same answers
// (an arena contestant's `answers` by AnswerLineSchema; POST /evaluations also by
// validateAnswerLines). The browser names the file's lines, so each case gives them; and it words
// two reasons its own way.

type Format = "csv" | "json" | "jsonl";

/** The server's reason, as the browser words it: a repeat names the file's line. */
const BROWSER_WORDS: [RegExp, (earlierLine: number) => string][] = [
  [/^expected an object with question and answer fields$/, () => "not a JSON object"],
  [/^the same question as row \d+$/, (line) => `the same question as row ${line}`],
];

interface Case {
  name: string;
  format: Format;
  file: string | Uint8Array;
  /** The file line of each answer read, or (for a refused file) of each problem, in order. */
  lines: number[];
  /** For a repeat: the line of the row it repeats. */
  earlierLine?: number;
}

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...Buffer.from(p)] : p)));
const jsonl = (...rows: unknown[]) => rows.map((row) => JSON.stringify(row)).join("\n") + "\n";

const CASES: Case[] = [
  {
    name: "JSONL with a BOM, CRLF, blank lines, references, contexts and citations",
    format: "jsonl",
    file:
      "\uFEFF" +
      JSON.stringify({
        question: "When did Line 1 open?",
        answer: "In 2009 [n1].",
        ground_truths: ["18 September 2009", "2009"],
        contexts: [{ node_id: "n1", content: "Line 1 opened in 2009.", document_id: "metro" }],
        citations: ["n1"],
        relevant_ids: ["metro"],
      }) +
      "\r\n\r\n" +
      JSON.stringify({
        question: "澜汀大学成立于哪一年？",
        answer: "1952年。",
        type: "user defined",
      }) +
      "\r\n",
    lines: [1, 3],
  },
  {
    name: "CSV with other spellings, quoted commas and line breaks, list cells and export apostrophes",
    format: "csv",
    file:
      "\uFEFFQuestion Text,Response,Reference,Contexts,citations,notes\r\n" +
      '"Who founded it, and when?","Ada, in 1901.\nShe was 30.","Ada","[""The founder was Ada.""]","c1 c2",x\r\n' +
      "\r\n" +
      "'=1+1?,'-2,,A plain context.,,y\r\n",
    lines: [2, 5],
  },
  {
    name: "CSV with empty list cells",
    format: "csv",
    file: "question,answer,contexts,citations,ground_truths,relevant_ids\nQ1,A1,,,,\n",
    lines: [2],
  },
  {
    name: "a JSON array, and the export's {questions: [...]}",
    format: "json",
    file: JSON.stringify({
      questions: [
        { question: "Why?", answer: "Because.", ground_truth: "because" },
        { question_text: "How long?", answer: "7.4 km", reference_contexts: ["It is 7.4 km."] },
      ],
    }),
    lines: [1, 2],
  },
  {
    name: "JSONL bad lines: a missing answer, a bad list, not an object, not JSON, NUL, a repeat",
    format: "jsonl",
    file:
      jsonl(
        { question: "Q1?", answer: "A1" },
        { question: "Q2?" },
        { question: "Q3?", answer: "A3", ground_truths: "[1, 2" },
        [1],
      ) +
      "{not json\n" +
      jsonl(
        { question: "Q6?", answer: "a\u0000b" },
        { question: "q1", answer: "again" },
        { question: "Q8?", answer: "x", answer_text: "y", response: "z" },
      ),
    lines: [2, 3, 4, 5, 6, 7, 8],
    earlierLine: 1,
  },
  {
    name: "CSV bad rows after a row spanning lines",
    format: "csv",
    file: [
      "question,answer,contexts",
      '"A question that spans',
      'two lines",yes,',
      "No answer?,,",
      "",
      "a question that spans two lines,again,",
      "Too many,a,b,c",
      'Bad list,x,"[""open"""',
    ].join("\n"),
    lines: [6, 7, 8],
    earlierLine: 2,
  },
  {
    name: "CSV rows over the limits",
    format: "csv",
    file:
      "question,answer,contexts,citations\n" +
      `Many?,x,"${JSON.stringify(Array.from({ length: 101 }, (_, i) => `c${i}`)).replaceAll('"', '""')}",\n` +
      `Cited?,x,,${Array.from({ length: 101 }, (_, i) => `n${i}`).join(" ")}\n`,
    lines: [2, 3],
  },
  {
    name: "CSV with invalid UTF-8 in a row spanning two lines",
    format: "csv",
    file: bytes('question,answer\nok?,x\n"two\nlin', [0xe9], 'es",y\n'),
    lines: [4],
  },
  {
    name: "CSV with broken quoting",
    format: "csv",
    file: 'question,answer\nok?,fine\n"open quote,x\n',
    lines: [3],
  },
  { name: "CSV without a question column", format: "csv", file: "q,a\nx,y\n", lines: [1] },
  { name: "CSV with a header only", format: "csv", file: "question,answer\n", lines: [1] },
  { name: "an empty file", format: "jsonl", file: bytes([0xef, 0xbb, 0xbf], "\n\n"), lines: [1] },
  {
    name: "JSON that is not JSON",
    format: "json",
    file: '[\n{"question": "a"},\n{oops}\n]',
    lines: [1],
  },
  {
    name: "JSON that is one object",
    format: "json",
    file: '{"question":"Q","answer":"A"}',
    lines: [1],
  },
  {
    name: "JSON items that are not answers",
    format: "json",
    file: JSON.stringify([
      { question: "Fine?", answer: "yes" },
      "just a string",
      { answer: "no q" },
    ]),
    lines: [2, 3],
  },
];

function serverOutcome(file: string | Uint8Array, format: Format) {
  try {
    return { ok: true as const, answers: onServer(file, format) };
  } catch (error) {
    if (!QuestionImportError.isInstance(error)) throw error;
    return { ok: false as const, error };
  }
}

describe("the browser reads an answers file exactly as the server does", () => {
  it.each(CASES)("$name", ({ file, format, lines, earlierLine }) => {
    const server = serverOutcome(file, format);
    const browser = inBrowser(file, format);
    if (server.ok) {
      if (!browser.ok)
        throw new Error(`the browser refused what the server read: ${browser.issues}`);
      expect(browser.file.rows.map((_, i) => rowOf(browser.file, i + 1))).toEqual(lines);
      // What the form sends is what the API reads: the same answers as the CLI's.
      expect(browser.file.rows.map((row) => AnswerLineSchema.parse(row))).toEqual(server.answers);
      expect(
        validateAnswerLines(browser.file.rows.map((value, i) => ({ row: i + 1, value }))),
      ).toEqual(server.answers);
      return;
    }
    if (browser.ok) throw new Error(`the browser loaded what the server refused: ${server.error}`);
    if (server.error.rows.length === 0) {
      // The file as a whole: one issue naming no line, in the server's words.
      expect(browser.issues.map(({ line, message }) => ({ line, message }))).toEqual([
        { line: null, message: server.error.message },
      ]);
      return;
    }
    expect(browser.issues.map((i) => i.line)).toEqual(lines);
    const inBrowserWords = server.error.rows.map(({ field, message }) => {
      const words = BROWSER_WORDS.find(([server]) => server.test(message));
      return { field, message: words ? words[1](earlierLine ?? 0) : message };
    });
    const rowIssues = browser.issues.map((issue) => ({
      field: issue.line === null ? undefined : issue.field,
      message: issue.message,
    }));
    expect(rowIssues).toEqual(inBrowserWords);
  });

  it("refuses and accepts the files it is meant to", () => {
    // Guards the table above: both kinds of case are in it, so neither branch goes untested.
    const accepted = CASES.filter((c) => serverOutcome(c.file, c.format).ok).map((c) => c.name);
    expect(accepted).toEqual(CASES.slice(0, 4).map((c) => c.name));
  });
});
