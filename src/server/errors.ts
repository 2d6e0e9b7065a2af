import type { Context } from "hono";
import { QuestionGenerationNotFoundError } from "../evals/generation/index.js";
import {
  QuestionNotFoundError,
  QuestionSetRequestError,
  QuestionSetVersionNotFoundError,
} from "../evals/question-sets/index.js";
import { QuestionGenerationError, QuestionImportError } from "../evals/questions/index.js";
import {
  EvaluationNotFoundError,
  EvaluationRequestError,
  EvaluationStateError,
} from "../evals/runs/index.js";
import { AnswersRejectedError } from "../evals/answers/index.js";
import { ArenaContestantError, ArenaNotFoundError } from "../evals/arena/index.js";
import { BotRegistrationError } from "../evals/bots/index.js";
import {
  CalibrationNotFoundError,
  CalibrationRequestError,
  LabelImportError,
} from "../evals/calibration/index.js";
import {
  QueueNotFoundError,
  QueueRequestError,
  QueueSlotTakenError,
} from "../evals/queues/index.js";
import { AlertRuleError } from "../production/index.js";
import {
  AlertRuleNameTakenError,
  AlertSecretKeyRequiredError,
  BotNameTakenError,
  CollectionNameTakenError,
  CollectionNotFoundError,
  DuplicateQuestionsError,
  isConnectionError,
  QuestionSetNotFoundError,
} from "../store/index.js";
import { ModelFailureError } from "../rag/index.js";

// The one place typed errors become HTTP answers (app.onError calls it): routes throw, and never
// catch to translate. Each typed error carries a `kind`; the status comes from the kind alone
// (STATUS), and the body from the error's entry in BODIES.

/** Each kind of typed error and its HTTP status. */
const STATUS = {
  invalid_request: 400,
  not_found: 404,
  name_taken: 409,
  conflict: 409,
  invalid_state: 409,
  model_failed: 502,
  unavailable: 503,
} as const;

type Kinded = { readonly kind: keyof typeof STATUS };
type Body = { error: string; message: string; [field: string]: unknown };
interface Entry {
  find: (error: unknown) => Kinded | undefined;
  body: (error: never) => Body;
}

/** An error class's entry: how to find one, and its body (error code, message, any details). */
function on<E extends Kinded>(
  find: (error: unknown) => E | undefined,
  body: (error: NoInfer<E>) => Body,
) {
  return { find, body } as Entry;
}
const is =
  <E>(type: abstract new (...args: never[]) => E) =>
  (error: unknown): E | undefined =>
    error instanceof type ? error : undefined;
const when =
  <E>(test: (error: unknown) => error is E) =>
  (error: unknown): E | undefined =>
    test(error) ? error : undefined;
/** A field-named request error's one issue: its message without the leading "field: ". */
const fieldIssue = (e: { field: string; message: string }) => [
  { path: e.field, message: e.message.slice(e.field.length + 2) },
];

/** First match wins: AnswersRejectedError is a QuestionImportError, so it comes first. */
const BODIES: Entry[] = [
  // A configured model failed and no fallback was asked for: say which, not the provider's text.
  on(ModelFailureError.findIn, (e) => ({
    error: "model_failed",
    message: `The ${e.role} model failed${e.cause instanceof Error ? ` (${e.cause.name})` : ""}.`,
  })),
  on(is(BotRegistrationError), (e) => ({
    error: e.code,
    message: e.message,
    issues: [{ path: e.field, message: e.message }],
  })),
  on(is(BotNameTakenError), (e) => ({ error: "name_taken", message: e.message })),
  on(is(AlertRuleNameTakenError), (e) => ({ error: "name_taken", message: e.message })),
  on(is(AlertRuleError), (e) => ({
    error: "validation_failed",
    message: e.message,
    issues: fieldIssue(e),
  })),
  on(is(AlertSecretKeyRequiredError), (e) => ({
    error: "secret_key_required",
    message: e.message,
  })),
  on(is(ArenaNotFoundError), (e) => ({ error: "not_found", message: `No such arena: ${e.id}.` })),
  on(is(ArenaContestantError), (e) => {
    const reason = e.reason;
    return {
      error: "invalid_contestant",
      message: e.message,
      contestant: e.contestant,
      ...(QuestionImportError.isInstance(reason) ? { rows: reason.rows } : {}),
      ...(reason instanceof EvaluationRequestError ? { issues: fieldIssue(reason) } : {}),
    };
  }),
  on(is(EvaluationNotFoundError), (e) => ({
    error: "not_found",
    message: `No such ${e.what}: ${e.id}.`,
  })),
  on(is(QueueNotFoundError), (e) => ({ error: "not_found", message: e.message })),
  on(is(QueueSlotTakenError), (e) => ({ error: "slot_taken", message: e.message })),
  on(is(QueueRequestError), (e) => ({
    error: "invalid_request",
    message: e.message,
    issues: [{ path: e.field, message: e.reason }],
  })),
  on(is(CalibrationNotFoundError), (e) => ({
    error: "not_found",
    message: `No such ${e.what}: ${e.id}.`,
  })),
  on(is(CalibrationRequestError), (e) => ({
    error: "invalid_request",
    message: e.message,
    issues: fieldIssue(e),
  })),
  on(is(LabelImportError), (e) => ({
    error: "invalid_labels",
    message: "Nothing was imported.",
    lines: e.issues,
  })),
  on(is(QuestionSetNotFoundError), () => ({
    error: "not_found",
    message: "No such question set.",
  })),
  on(is(QuestionNotFoundError), () => ({ error: "not_found", message: "No such question." })),
  on(is(QuestionSetVersionNotFoundError), () => ({
    error: "not_found",
    message: "No such version of the question set.",
  })),
  on(is(QuestionGenerationNotFoundError), () => ({
    error: "not_found",
    message: "No such question generation.",
  })),
  on(is(CollectionNotFoundError), (e) => ({
    error: "not_found",
    message: `collection_id: no collection ${e.collection}.`,
  })),
  on(is(EvaluationStateError), (e) => ({
    error: "invalid_state",
    message: `Cannot ${e.operation}: the evaluation is ${e.status}.`,
  })),
  on(is(CollectionNameTakenError), (e) => ({ error: "name_taken", message: e.message })),
  on(is(DuplicateQuestionsError), (e) => ({
    error: "duplicate_questions",
    message: `Nothing was added: ${e.message}`,
    duplicates: e.duplicates.map(({ index, question_text }) => ({ index, question_text })),
  })),
  on(is(EvaluationRequestError), (e) => ({
    error: "invalid_request",
    message: e.message,
    issues: fieldIssue(e),
  })),
  on(is(QuestionSetRequestError), (e) => ({
    error: "invalid_questions",
    message: e.message,
    issues: e.issues,
  })),
  // A run's precomputed answers rejected whole: every bad item named (row = index + 1).
  on(when(AnswersRejectedError.isAnswers), (e) => ({
    error: "invalid_answers",
    message: e.message,
    rows: e.rows,
  })),
  on(when(QuestionImportError.isInstance), (e) => ({
    error: "invalid_import",
    message: `Nothing was imported: ${e.message}`,
    rows: e.rows,
  })),
  on(when(QuestionGenerationError.isInstance), (e) => ({
    error: "invalid_generation",
    message: e.message,
    issues: [{ path: e.field, message: e.message }],
  })),
  // The database went away (a restart, a failover): the request may simply be sent again, and
  // clients retry a 503 after Retry-After (OpenTelemetry's exporters retry no 500).
  on(
    (error) => (isConnectionError(error) ? { kind: "unavailable" as const } : undefined),
    () => ({
      error: "database_unavailable",
      message: "The database cannot be reached just now; retry in a few seconds.",
    }),
  ),
];

/** The answer for a typed error a service throws; undefined for an unexpected one (a 500). */
export function knownErrorResponse(c: Context, error: unknown): Response | undefined {
  for (const { find, body } of BODIES) {
    const found = find(error);
    if (!found) continue;
    const headers = found.kind === "unavailable" ? { "retry-after": "2" } : undefined;
    return c.json(body(found as never), STATUS[found.kind], headers);
  }
  return undefined;
}
