import type { components } from "./schema";

// The shapes the pages read, named once: each is the generated schema's own type (schema.d.ts,
// from the server's route table), so a change on the server shows here as a type error.

type Schemas = components["schemas"];

export type Progress = Schemas["Progress"];
/** A run as the list shows it (with progress and pass rate). */
export type EvaluationListItem = Schemas["EvaluationListItem"];
export type EvaluationStatus = EvaluationListItem["status"];
export type EvaluationSummary = Schemas["EvaluationSummary"];
export type EvaluationDetail = Schemas["EvaluationDetail"];
export type EvaluationResult = Schemas["EvaluationResult"];
/** A row of a run's results list: what a closed ResultComparisonCard shows. */
export type EvaluationResultListItem = Schemas["EvaluationResultListItem"];
export type ResultStatus = EvaluationResult["status"];
export type JudgeResult = Schemas["JudgeResult"];
export type JudgeKind = NonNullable<Schemas["EvaluationRequest"]["judges"]>[number];
/** One step of the built-in bot's loop trace. */
export type TraceStep = Schemas["AskResponse"]["trace"][number];
export type AskResponse = Schemas["AskResponse"];
export type EvaluationRequest = Schemas["EvaluationRequest"];
export type QuestionSet = Schemas["QuestionSet"];
export type Question = Schemas["Question"];
export type Generation = Schemas["QuestionGeneration"];

/**
 * Every member of a generated union, listed for the pages to iterate: a value the union lacks, or
 * a member the list leaves out, fails to compile.
 */
function everyOf<T extends string>() {
  return <const L extends readonly T[]>(
    ...values: L & ([Exclude<T, L[number]>] extends [never] ? unknown : never)
  ): L => values;
}

export const EVALUATION_STATUSES = everyOf<EvaluationStatus>()(
  "PENDING",
  "RUNNING",
  "PAUSED",
  "COMPLETED",
  "FAILED",
  "CANCELLED",
);
export const RESULT_STATUSES = everyOf<ResultStatus>()(
  "PENDING",
  "RUNNING",
  "SCORED",
  "BOT_ERROR",
  "JUDGE_ERROR",
);
export const JUDGE_KINDS = everyOf<JudgeKind>()(
  "review",
  "rubric",
  "reference",
  "offline",
  "token_precision",
  "contains_reference",
  "claims",
  "claims_offline",
);
export type RunCost = EvaluationSummary["cost"];
export type CostTotal = RunCost["total"];

export type Session = Schemas["Session"];
/** A role in a workspace: owner, editor, annotator or viewer. */
export type WorkspaceRole = Session["workspace"]["role"];
