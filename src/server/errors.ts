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
import { errorJson } from "./http.js";

// The one place typed errors become HTTP answers (app.onError calls it): routes throw, and never
// catch to translate.

/** The answer for a typed error a service throws; undefined for an unexpected one (a 500). */
export function knownErrorResponse(c: Context, error: unknown): Response | undefined {
  // A configured model failed and no fallback was asked for: say which, not the provider's text.
  const failed = ModelFailureError.findIn(error);
  if (failed) {
    const cause = failed.cause instanceof Error ? ` (${failed.cause.name})` : "";
    return c.json(
      { error: "model_failed", message: `The ${failed.role} model failed${cause}.` },
      502,
    );
  }
  if (error instanceof BotRegistrationError) {
    return c.json(
      {
        error: error.code,
        message: error.message,
        issues: [{ path: error.field, message: error.message }],
      },
      400,
    );
  }
  if (error instanceof BotNameTakenError) return errorJson(c, 409, "name_taken", error.message);
  if (error instanceof AlertRuleNameTakenError)
    return errorJson(c, 409, "name_taken", error.message);
  if (error instanceof AlertRuleError) {
    return c.json(
      {
        error: "validation_failed",
        message: error.message,
        issues: [{ path: error.field, message: error.message.slice(error.field.length + 2) }],
      },
      400,
    );
  }
  if (error instanceof AlertSecretKeyRequiredError)
    return errorJson(c, 400, "secret_key_required", error.message);
  if (error instanceof ArenaNotFoundError)
    return errorJson(c, 404, "not_found", `No such arena: ${error.id}.`);
  if (error instanceof ArenaContestantError) {
    const reason = error.reason;
    return c.json(
      {
        error: "invalid_contestant",
        message: error.message,
        contestant: error.contestant,
        ...(QuestionImportError.isInstance(reason) ? { rows: reason.rows } : {}),
        ...(reason instanceof EvaluationRequestError
          ? {
              issues: [
                { path: reason.field, message: reason.message.slice(reason.field.length + 2) },
              ],
            }
          : {}),
      },
      400,
    );
  }
  if (error instanceof EvaluationNotFoundError)
    return errorJson(c, 404, "not_found", `No such ${error.what}: ${error.id}.`);
  if (error instanceof QueueNotFoundError) return errorJson(c, 404, "not_found", error.message);
  if (error instanceof QueueSlotTakenError) return errorJson(c, 409, "slot_taken", error.message);
  if (error instanceof QueueRequestError) {
    return c.json(
      {
        error: "invalid_request",
        message: error.message,
        issues: [{ path: error.field, message: error.reason }],
      },
      400,
    );
  }
  if (error instanceof CalibrationNotFoundError)
    return errorJson(c, 404, "not_found", `No such ${error.what}: ${error.id}.`);
  if (error instanceof CalibrationRequestError) {
    return c.json(
      {
        error: "invalid_request",
        message: error.message,
        issues: [{ path: error.field, message: error.message.slice(error.field.length + 2) }],
      },
      400,
    );
  }
  if (error instanceof LabelImportError) {
    return c.json(
      { error: "invalid_labels", message: "Nothing was imported.", lines: error.issues },
      400,
    );
  }
  if (error instanceof QuestionSetNotFoundError)
    return errorJson(c, 404, "not_found", "No such question set.");
  if (error instanceof QuestionNotFoundError)
    return errorJson(c, 404, "not_found", "No such question.");
  if (error instanceof QuestionSetVersionNotFoundError)
    return errorJson(c, 404, "not_found", "No such version of the question set.");
  if (error instanceof QuestionGenerationNotFoundError)
    return errorJson(c, 404, "not_found", "No such question generation.");
  if (error instanceof CollectionNotFoundError)
    return errorJson(c, 404, "not_found", `collection_id: no collection ${error.collection}.`);
  if (error instanceof EvaluationStateError)
    return errorJson(
      c,
      409,
      "invalid_state",
      `Cannot ${error.operation}: the evaluation is ${error.status}.`,
    );
  if (error instanceof CollectionNameTakenError)
    return errorJson(c, 409, "name_taken", error.message);
  if (error instanceof DuplicateQuestionsError) {
    return c.json(
      {
        error: "duplicate_questions",
        message: `Nothing was added: ${error.message}`,
        duplicates: error.duplicates.map(({ index, question_text }) => ({ index, question_text })),
      },
      409,
    );
  }
  if (error instanceof EvaluationRequestError) {
    return c.json(
      {
        error: "invalid_request",
        message: error.message,
        issues: [{ path: error.field, message: error.message.slice(error.field.length + 2) }],
      },
      400,
    );
  }
  if (error instanceof QuestionSetRequestError) {
    return c.json(
      { error: "invalid_questions", message: error.message, issues: error.issues },
      400,
    );
  }
  if (AnswersRejectedError.isAnswers(error)) {
    // A run's precomputed answers rejected whole: every bad item named (row = index + 1).
    return c.json({ error: "invalid_answers", message: error.message, rows: error.rows }, 400);
  }
  if (QuestionImportError.isInstance(error)) {
    return c.json(
      {
        error: "invalid_import",
        message: `Nothing was imported: ${error.message}`,
        rows: error.rows,
      },
      400,
    );
  }
  if (QuestionGenerationError.isInstance(error)) {
    return c.json(
      {
        error: "invalid_generation",
        message: error.message,
        issues: [{ path: error.field, message: error.message }],
      },
      400,
    );
  }
  // The database went away (a restart, a failover): the request may simply be sent again, and
  // clients retry a 503 after Retry-After (OpenTelemetry's exporters retry no 500).
  if (isConnectionError(error)) {
    return c.json(
      {
        error: "database_unavailable",
        message: "The database cannot be reached just now; retry in a few seconds.",
      },
      503,
      { "retry-after": "2" },
    );
  }
  return undefined;
}
