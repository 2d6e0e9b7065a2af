import { z } from "zod";
import { JUDGE_KINDS, type JudgeKind } from "../../judges/index.js";
import type { EvaluationRow } from "../../store/index.js";
import { canonicalJson } from "../../text/index.js";

// Two runs' scores are comparable only when the same questions were judged the same way: the
// compare view warns, in these codes, when they were not (issue 23 §1.3). The surfaces word them.

/** The scale a judge's own number runs over (the primary score maps each onto [0, 1]). */
export type JudgeScale = "1-10" | "1-5" | "0-1" | "pass_fail";

const SCALE_OF: Record<JudgeKind, JudgeScale> = {
  rubric: "1-10",
  offline: "1-10",
  reference: "1-5",
  review: "pass_fail",
  token_precision: "0-1",
  contains_reference: "pass_fail",
  claims: "0-1",
  claims_offline: "0-1",
};

/** Why two runs' scores are not comparable, with what each side had. */
export type Incomparability =
  | { code: "question_set"; base: string | null; head: string | null }
  /** One set, different versions of it (null: a run made before versions). */
  | { code: "question_set_version"; base: number | null; head: number | null }
  | { code: "judges"; base: JudgeKind[]; head: JudgeKind[] }
  | { code: "scale"; base: JudgeScale[]; head: JudgeScale[] }
  | { code: "judge_model"; base: string; head: string }
  /** Same judges, set up differently (weights, pass thresholds, prompt language, repeats). */
  | { code: "judge_settings"; judges: JudgeKind[] };

/** The part of a stored snapshot this reads; older snapshots may lack any of it. */
const SnapshotJudgingSchema = z.object({
  judges: z.array(z.enum(JUDGE_KINDS)).catch([]),
  judges_config: z.record(z.string(), z.unknown()).catch({}),
});

/** The judge model of a run whose judges are all offline (runs/config.ts judgeModelIdOf). */
const NO_MODEL = "offline";

type ComparedRow = Pick<EvaluationRow, "question_set_id" | "judge_llm_model_id" | "config"> &
  Partial<Pick<EvaluationRow, "question_set_version_id" | "question_set_version">>;

const sorted = <T extends string>(values: Iterable<T>): T[] => [...new Set(values)].sort();
const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);

/**
 * What makes two runs' scores not comparable, base first: different question sets (matched then
 * by question text) or versions of one set (only unchanged questions compared), judges, judge scales, judge models or judge settings. Empty when comparable.
 */
export function incomparabilityOf(base: ComparedRow, head: ComparedRow): Incomparability[] {
  const found: Incomparability[] = [];
  if (base.question_set_id !== head.question_set_id) {
    found.push({ code: "question_set", base: base.question_set_id, head: head.question_set_id });
  } else if ((base.question_set_version_id ?? null) !== (head.question_set_version_id ?? null)) {
    found.push({
      code: "question_set_version",
      base: base.question_set_version ?? null,
      head: head.question_set_version ?? null,
    });
  }
  const a = SnapshotJudgingSchema.parse(base.config);
  const b = SnapshotJudgingSchema.parse(head.config);
  const judgesA = sorted(a.judges);
  const judgesB = sorted(b.judges);
  if (!same(judgesA, judgesB)) found.push({ code: "judges", base: judgesA, head: judgesB });
  const scalesA = sorted(judgesA.map((kind) => SCALE_OF[kind]));
  const scalesB = sorted(judgesB.map((kind) => SCALE_OF[kind]));
  if (!same(scalesA, scalesB)) found.push({ code: "scale", base: scalesA, head: scalesB });
  // "offline" is no model at all: a run without an LLM judge already differs in its judges.
  const models = [base.judge_llm_model_id, head.judge_llm_model_id];
  if (!models.includes(NO_MODEL) && models[0] !== models[1]) {
    found.push({
      code: "judge_model",
      base: base.judge_llm_model_id,
      head: head.judge_llm_model_id,
    });
  }
  const shared = judgesA.filter((kind) => judgesB.includes(kind));
  // The offline judge's heuristic rubric weighs its dimensions with the rubric's settings.
  const settingsOf = (config: Record<string, unknown>, kind: JudgeKind) =>
    canonicalJson(config[kind === "offline" ? "rubric" : kind] ?? null);
  const differing = shared.filter(
    (kind) => settingsOf(a.judges_config, kind) !== settingsOf(b.judges_config, kind),
  );
  const common = (config: Record<string, unknown>) =>
    canonicalJson([config.language ?? null, config.repeat ?? null]);
  if (
    differing.length > 0 ||
    (shared.length > 0 && common(a.judges_config) !== common(b.judges_config))
  ) {
    found.push({ code: "judge_settings", judges: differing.length > 0 ? differing : shared });
  }
  return found;
}
