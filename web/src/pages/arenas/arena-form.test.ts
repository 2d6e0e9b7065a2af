import { describe, expect, it } from "vitest";
import { wordMessage } from "../../../../src/text/user-messages";
import { ApiError } from "../../api/client";
import { parseAnswersFile } from "./answers-file";
import {
  type ArenaForm,
  type ArenaMessages,
  arenaErrorsOf,
  arenaRequestOf,
  emptyContestant,
  hasErrors,
  validateArenaForm,
} from "./arena-form";

const messages: ArenaMessages = {
  pickSet: "pick a set",
  needTwo: "two",
  needName: "name",
  sameName: "same",
  pickRun: "pick a run",
  badUrl: "bad url",
  pickFile: "pick a file",
  fileLine: (line, field, message) => `row ${line}: ${field}: ${message}`,
  fileWhole: (message) => `the file: ${message}`,
  say: (words) => wordMessage(words, "en"),
};

function form(): ArenaForm {
  return {
    name: "",
    question_set_id: "set-1",
    judge: "offline",
    rounds: 1000,
    contestants: [
      { ...emptyContestant(1), evaluation_id: "run-1" },
      {
        ...emptyContestant(2, "answers"),
        name: "file",
        fileName: "a.jsonl",
        file: {
          rows: [
            { question: "Q1", answer: "A" },
            { question: "Q9", answer: "B" },
          ],
          lines: [1, 4],
        },
      },
      { ...emptyContestant(3, "http"), url: "http://127.0.0.1:9000/ask" },
      { ...emptyContestant(4, "builtin"), collection_id: "col-1" },
    ],
  };
}

describe("validateArenaForm", () => {
  it("passes a complete form and builds the API's request from it", () => {
    expect(hasErrors(validateArenaForm(form(), messages))).toBe(false);
    expect(arenaRequestOf(form())).toEqual({
      question_set_id: "set-1",
      judge: "offline",
      rounds: 1000,
      contestants: [
        { name: "system-1", evaluation_id: "run-1" },
        {
          name: "file",
          answers: [
            { question: "Q1", answer: "A" },
            { question: "Q9", answer: "B" },
          ],
        },
        { name: "system-3", bot: { kind: "http", url: "http://127.0.0.1:9000/ask" } },
        { name: "system-4", bot: { kind: "builtin" }, collection_id: "col-1" },
      ],
    });
  });

  it("puts each problem beside its field", () => {
    const f = form();
    f.question_set_id = "";
    f.contestants[0]!.evaluation_id = "";
    f.contestants[1]!.file = null;
    f.contestants[2]!.url = "ftp://x";
    f.contestants[3]!.name = "system-1";
    const errors = validateArenaForm(f, messages);
    expect(errors.question_set_id).toBe("pick a set");
    expect(errors.contestants).toEqual([
      { evaluation_id: "pick a run" },
      { file: "pick a file" },
      { url: "bad url" },
      { name: "same" },
    ]);
    expect(
      validateArenaForm({ ...form(), contestants: [form().contestants[0]!] }, messages).form,
    ).toBe("two");
  });

  it("names a file's problems by line, and a problem of the whole file by no row or field", () => {
    const f = form();
    const issuesOf = (text: string) => {
      const outcome = parseAnswersFile(text, "jsonl");
      if (outcome.ok) throw new Error("the file was read");
      return outcome.issues;
    };
    f.contestants[1] = { ...f.contestants[1]!, file: null, fileIssues: issuesOf("\n") };
    expect(validateArenaForm(f, messages).contestants[1]).toEqual({
      file: "the file: no answers in the file",
    });
    f.contestants[1]!.fileIssues = issuesOf('{"question":"Q1","answer":"A"}\n[1]\n');
    expect(validateArenaForm(f, messages).contestants[1]).toEqual({
      file: "row 2: (row): not a JSON object",
    });
    // In Chinese, the reader's problems are the catalogue's Chinese words.
    const zh = {
      ...messages,
      say: (words: Parameters<ArenaMessages["say"]>[0]) => wordMessage(words, "zh"),
    };
    f.contestants[1]!.fileIssues = issuesOf("\n");
    expect(validateArenaForm(f, zh).contestants[1]).toEqual({
      file: "the file: 文件中没有回答",
    });
  });
});

describe("arenaErrorsOf", () => {
  const error = (body: unknown) => new ApiError(400, "invalid", "rejected", body);

  it("names the file's own line when the server rejects a row of a contestant's answers", () => {
    const errors = arenaErrorsOf(
      error({
        contestant: "file",
        rows: [{ row: 2, field: "question", message: "not a question of the set" }],
      }),
      form(),
      messages,
    );
    expect(errors.contestants[1]).toEqual({
      file: "row 4: question: not a question of the set",
    });
  });

  it("maps body issues by path: contestants.N.field, answers rows, and the top-level fields", () => {
    const errors = arenaErrorsOf(
      error({
        issues: [
          { path: "contestants.2.bot.url", message: "not allowed by the bot network policy" },
          { path: "contestants.1.answers.0.answer", message: "expected string" },
          { path: "question_set_id", message: "a question set id" },
        ],
      }),
      form(),
      messages,
    );
    expect(errors.contestants[2]).toEqual({ url: "not allowed by the bot network policy" });
    expect(errors.contestants[1]).toEqual({ file: "row 1: answer: expected string" });
    expect(errors.question_set_id).toBe("a question set id");
  });

  it("puts a named contestant's plain error beside it, and anything else on the form", () => {
    const named = arenaErrorsOf(
      new ApiError(400, "invalid_contestant", 'contestant "system-1": ran on another set', {
        contestant: "system-1",
        issues: [{ path: "contestants.0.evaluation_id", message: "ran on another question set" }],
      }),
      form(),
      messages,
    );
    expect(named.contestants[0]).toEqual({ evaluation_id: "ran on another question set" });
    const other = arenaErrorsOf(
      new ApiError(404, "not_found", "No such evaluation: x.", {}),
      form(),
      messages,
    );
    expect(other.form).toBe("No such evaluation: x.");
  });
});
