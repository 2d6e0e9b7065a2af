// A judge's reasoning in words, from its verdict: the fields judges write their reasons in
// (review's problems, rubric's and reference's reasoning, offline's summary), never the raw JSON.

const REASON_FIELDS = ["reasoning", "reason", "analysis", "summary", "explanation"] as const;

export function reasoningOf(verdict: unknown): string[] {
  if (!verdict || typeof verdict !== "object") return [];
  const lines: string[] = [];
  const record = verdict as Record<string, unknown>;
  for (const field of REASON_FIELDS) {
    const value = record[field];
    if (typeof value === "string" && value.trim()) lines.push(value.trim());
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
