import { ApiError } from "../../api/client";
import type { EvaluationRequest, JudgeKind } from "../../api/types";

export type FormField =
  "name" | "question_set_id" | "collection_id" | "bot_url" | "judges" | "form";
export type FieldErrors = Partial<Record<FormField, string>>;

export interface EvaluationForm {
  name: string;
  question_set_id: string;
  collection_id: string;
  bot: "builtin" | "http";
  bot_url: string;
  judges: JudgeKind[];
}

/** What the form can tell before asking the server; the messages are keys' values passed in. */
export function validateForm(
  form: EvaluationForm,
  messages: { pickSet: string; pickJudge: string; pickCollection: string; badUrl: string },
): FieldErrors {
  const errors: FieldErrors = {};
  if (!form.question_set_id) errors.question_set_id = messages.pickSet;
  if (form.judges.length === 0) errors.judges = messages.pickJudge;
  if (form.bot === "builtin" && !form.collection_id) errors.collection_id = messages.pickCollection;
  if (form.bot === "http") {
    let ok = false;
    try {
      const url = new URL(form.bot_url);
      ok = url.protocol === "http:" || url.protocol === "https:";
    } catch {
      ok = false;
    }
    if (!ok) errors.bot_url = messages.badUrl;
  }
  return errors;
}

/** The request body the API takes, from the form. */
export function requestOf(form: EvaluationForm): EvaluationRequest {
  return {
    ...(form.name.trim() ? { name: form.name.trim() } : {}),
    question_set_id: form.question_set_id,
    ...(form.collection_id ? { collection_id: form.collection_id } : {}),
    bot: form.bot === "http" ? { kind: "http", url: form.bot_url.trim() } : { kind: "builtin" },
    judges: form.judges,
  };
}

/** A server 400's issues placed beside the fields they name (`bot.url` → the URL field). */
export function fieldErrorsOf(error: unknown): FieldErrors {
  if (!ApiError.isInstance(error))
    return { form: error instanceof Error ? error.message : String(error) };
  const issues = (error.body as { issues?: { path?: unknown; message?: string }[] } | undefined)
    ?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return { form: error.message };
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const path = Array.isArray(issue.path) ? issue.path.join(".") : String(issue.path ?? "");
    const field: FormField = path.startsWith("bot")
      ? "bot_url"
      : path.startsWith("question_set_id")
        ? "question_set_id"
        : path.startsWith("collection")
          ? "collection_id"
          : path.startsWith("judges")
            ? "judges"
            : path.startsWith("name")
              ? "name"
              : "form";
    errors[field] = errors[field]
      ? `${errors[field]}; ${issue.message ?? ""}`
      : (issue.message ?? error.message);
  }
  return errors;
}
