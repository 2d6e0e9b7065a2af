import {
  DEFAULT_JUDGES_CONFIG,
  type JudgesConfig,
  JudgesConfigSchema,
} from "../../judges/index.js";
import type { EvaluationRow, LabelScale } from "../../store/index.js";
import { CalibrationRequestError } from "./errors.js";
import { scaleOfJudge } from "./scales.js";

/** What a run's stored snapshot says about its judges: which ran, and with which settings. */
export function runJudges(evaluation: Pick<EvaluationRow, "config">): {
  judges: string[];
  config: JudgesConfig;
} {
  const snapshot = (evaluation.config ?? {}) as { judges?: unknown; judges_config?: unknown };
  const judges = Array.isArray(snapshot.judges) ? snapshot.judges.map(String) : [];
  const parsed = JudgesConfigSchema.safeParse(snapshot.judges_config ?? {});
  return { judges, config: parsed.success ? parsed.data : DEFAULT_JUDGES_CONFIG };
}

/**
 * The judge to calibrate: the one asked for (it must have run), else the first of the run's judges
 * with labels on its scale, else its first judge.
 */
export function chooseJudge(
  judges: readonly string[],
  counts: Partial<Record<LabelScale, number>>,
  asked?: string,
): string {
  if (asked !== undefined) {
    if (!judges.includes(asked)) {
      throw new CalibrationRequestError(
        "judge",
        `the run has no ${asked} judge; it ran ${judges.join(", ") || "none"}`,
      );
    }
    return asked;
  }
  const labelled = judges.find((judge) => {
    const scale = scaleOfJudge(judge);
    return (scale !== null && (counts[scale] ?? 0) > 0) || (counts.pass_fail ?? 0) > 0;
  });
  const judge = labelled ?? judges[0];
  if (judge === undefined) throw new CalibrationRequestError("judge", "the run has no judges");
  return judge;
}

/** The scale human scores of a run are read on: the asked one, the judge's, or the run's first. */
export function scoreScaleOf(
  judges: readonly string[],
  asked?: { scale?: Exclude<LabelScale, "pass_fail">; judge?: string },
): Exclude<LabelScale, "pass_fail"> | null {
  if (asked?.scale) return asked.scale;
  if (asked?.judge) {
    if (!judges.includes(asked.judge)) {
      throw new CalibrationRequestError(
        "judge",
        `the run has no ${asked.judge} judge; it ran ${judges.join(", ") || "none"}`,
      );
    }
    return scaleOfJudge(asked.judge);
  }
  for (const judge of judges) {
    const scale = scaleOfJudge(judge);
    if (scale) return scale;
  }
  return null;
}
