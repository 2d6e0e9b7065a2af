import { describe, expect, it } from "vitest";
import { UsageError } from "../usage-error.js";
import { parseArenaArgs } from "./arena-args.js";
import { parseEvalArgs } from "./eval-args.js";

describe("parseEvalArgs", () => {
  const usageErrors: Array<[string[], RegExp]> = [
    [
      ["--questions", "x.jsonl", "--format", "yaml"],
      /--format must be one of table, json, junit, markdown/,
    ],
    [["--questions", "x.jsonl"], /--collection is required for the built-in bot/],
    [["--collection", "lanting"], /--questions FILE\|ID is required/],
    [
      ["--collection", "lanting", "--questions", "x", "--min-score", "2"],
      /--min-score takes a score from 0 to 1/,
    ],
    [
      ["--collection", "lanting", "--questions", "x", "--bot", "ftp://x"],
      /--bot takes "builtin" or an http\(s\) URL/,
    ],
    [
      ["--collection", "lanting", "--questions", "x", "--concurrency", "0"],
      /--concurrency must be an integer from 1 to 1024/,
    ],
    [["--resume", "not-an-id"], /--resume takes an evaluation id/],
    [["--collection", "lanting", "--questions", "x", "--lang", "fr"], /--lang: expected en or zh/],
    [
      ["--answers", "a.jsonl", "--max-cost", "0"],
      /--max-cost takes a number of US dollars above 0/,
    ],
    [["--answers", "a.jsonl", "--max-cost", "cheap"], /--max-cost takes a number/],
    [["--answers", "a.jsonl", "--max-cost", "none"], /--max-cost none goes with --resume/],
    [["--resume", "00000000-0000-4000-8000-000000000000", "--questions", "x"], /drop --questions/],
  ];
  for (const [argv, message] of usageErrors) {
    it(`refuses ${argv.join(" ")}`, () => {
      expect(() => parseEvalArgs(argv)).toThrow(UsageError);
      expect(() => parseEvalArgs(argv)).toThrow(message);
    });
  }

  it("fills the documented defaults", () => {
    const args = parseEvalArgs(["--collection", "lanting", "--questions", "q.jsonl"]);
    expect(args).toMatchObject({
      bot: { kind: "builtin" },
      judges: ["offline"],
      format: "table",
      concurrency: 16,
      tolerance: 0.05,
      noCache: false,
      worker: true,
      collection: "lanting",
      questions: "q.jsonl",
    });
    expect(parseEvalArgs(["--help"])).toBe("help");
    expect(parseEvalArgs(["--answers", "a.jsonl", "--max-cost", "2.5"])).toMatchObject({
      maxCost: 2.5,
    });
    // With --resume, a paused run's new limit.
    expect(
      parseEvalArgs(["--resume", "00000000-0000-4000-8000-000000000000", "--max-cost", "5"]),
    ).toMatchObject({ resume: "00000000-0000-4000-8000-000000000000", maxCost: 5 });
    // `none` removes it.
    expect(
      parseEvalArgs(["--resume", "00000000-0000-4000-8000-000000000000", "--max-cost", "none"]),
    ).toMatchObject({ maxCost: null });
  });
});

describe("--lang", () => {
  it("is English unless zh is asked for, for eval and arena alike", () => {
    const evalArgs = (extra: string[]) =>
      parseEvalArgs(["--collection", "lanting", "--questions", "x", ...extra]);
    expect(evalArgs([])).toMatchObject({ lang: "en" });
    expect(evalArgs(["--lang", "zh"])).toMatchObject({ lang: "zh" });
    const arena = (extra: string[]) =>
      parseArenaArgs([
        "--questions",
        "x",
        "--answers",
        "a=a.jsonl",
        "--answers",
        "b=b.jsonl",
        ...extra,
      ]);
    expect(arena([])).toMatchObject({ lang: "en" });
    expect(arena(["--lang", "zh", "--language", "en"])).toMatchObject({
      lang: "zh",
      language: "en",
    });
    expect(() => arena(["--lang", "fr"])).toThrow(/--lang: expected en or zh, got "fr"/);
  });
});
