// A judge's reasoning in words, from its verdict: the fields judges write their reasons in
// (review's problems, rubric's and reference's reasoning, offline's summary), never the raw JSON.
// The offline judge's reason, analysis and limits are codes too (`reason_message`,
// `analysis_message`, `limits_messages`), worded by `say` in the reader's language; verdicts
// stored before the codes existed show their English words.

import { asCodedMessage, type CodedMessage } from "../../../../src/text/user-messages";

const REASON_FIELDS = ["reasoning", "reason", "analysis", "summary", "explanation"] as const;

/** A coded sentence the server wrote beside an English field, or nothing. */
function codedOf(value: unknown): CodedMessage | undefined {
  // Only an object is a code: a plain string would be read as a "plain" code otherwise.
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (asCodedMessage(value) ?? undefined)
    : undefined;
}

export function reasoningOf(verdict: unknown, say: (message: CodedMessage) => string): string[] {
  if (!verdict || typeof verdict !== "object") return [];
  const lines: string[] = [];
  const record = verdict as Record<string, unknown>;
  for (const field of REASON_FIELDS) {
    const coded = codedOf(record[`${field}_message`]);
    const value = record[field];
    if (coded) lines.push(say(coded).trim());
    else if (typeof value === "string" && value.trim()) lines.push(value.trim());
  }
  // The offline judge's limits: where its verdict is known to do worse than a baseline.
  const limits = record.limits_messages;
  if (Array.isArray(limits)) {
    for (const limit of limits) {
      const coded = codedOf(limit);
      if (coded) lines.push(say(coded));
    }
  } else if (Array.isArray(record.limits)) {
    for (const limit of record.limits) if (typeof limit === "string") lines.push(limit);
  }
  // Review (seed 000): each part's problems, when it did not pass.
  for (const part of ["reasonableness", "evidence"]) {
    const problems = (record[part] as { problems?: unknown } | undefined)?.problems;
    if (Array.isArray(problems)) {
      for (const problem of problems) if (typeof problem === "string") lines.push(problem);
    }
  }
  return lines;
}
