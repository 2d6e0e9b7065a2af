// Gate patterns come from requests, JSONL lines and config files. A backtracking engine
// (JavaScript's RegExp) takes exponential time on patterns such as `^(a+)+$`, so one request
// could stall the process (ReDoS). RE2's engine (re2js, pure JavaScript) matches in time linear
// in the text whatever the pattern, and refuses what it cannot do so (backreferences,
// lookaround). Every surface compiles patterns here, so the CLI and the API accept the same syntax.

import { RE2JS } from "re2js";

/** A compiled pattern list: `test` says whether it matches the text. */
export interface PatternMatcher {
  test(text: string): boolean;
}

/**
 * How a pattern list is applied: `anywhere` in the text; `whole`, matching all of it; `lines`,
 * anywhere with ^ and $ at line breaks, which tests many short texts joined by "\n" at once.
 */
export type PatternMode = "anywhere" | "whole" | "lines";

const NEVER: PatternMatcher = { test: () => false };

/** Why RE2 refuses `source` (compiled case-insensitively, as the gate does), or undefined. */
export function patternSyntaxError(source: string): string | undefined {
  try {
    RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** One case-insensitive, linear-time matcher for the whole list; throws on a pattern RE2 refuses. */
export function compilePatternList(patterns: readonly string[], mode: PatternMode): PatternMatcher {
  if (patterns.length === 0) return NEVER;
  const alternatives = patterns.map((p) => `(?:${p})`).join("|");
  const flags = RE2JS.CASE_INSENSITIVE | (mode === "lines" ? RE2JS.MULTILINE : 0);
  const compiled = RE2JS.compile(alternatives, flags);
  if (mode === "whole") return { test: (text) => compiled.testExact(text) };
  return { test: (text) => compiled.test(text) };
}
