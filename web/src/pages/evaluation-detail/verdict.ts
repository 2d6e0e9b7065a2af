// A result's verdict as a person reads it: each judge on its own scale (7.8 / 10), which judges
// decided a fail. The rule is src/evals/runs/run-item.ts's: a result passes when every judge
// passes it and the gate does not say fail; its 0–1 score is the mean of the judges' 0–1 scores.

import type { JudgeResult } from "../../api/types";

/** Each judge's own scale (docs/judges.md); review is pass or fail, shown as such. */
const SCALE_MAX: Record<string, number | undefined> = {
  rubric: 10,
  offline: 10,
  reference: 5,
};

/** "7.8 / 10" on the judge's own scale, or undefined for a pass/fail judge or an error. */
export function ownScale(name: string, judge: JudgeResult): string | undefined {
  const max = SCALE_MAX[name];
  if (max === undefined || judge.outcome !== "ok" || typeof judge.raw_score !== "number") {
    return undefined;
  }
  return `${Number(judge.raw_score.toFixed(1))} / ${max}`;
}

/** The judges that failed the answer, in the order they ran. */
export function failingJudges(judges: Record<string, JudgeResult>): string[] {
  return Object.entries(judges).flatMap(([name, judge]) =>
    judge.outcome === "ok" && judge.passed === false ? [name] : [],
  );
}
