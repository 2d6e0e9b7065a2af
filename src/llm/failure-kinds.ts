import { failureKindWords } from "../text/index.js";
import { LlmError } from "./errors.js";

// Many failed calls of one kind read as one line with a count, not as N copies of one message
// (issue 23 §1.4): a pairwise arena or a question generation where nothing worked says why once.

export const FAILURE_KINDS = [
  "unusable_reply",
  "http",
  "timeout",
  "connection",
  "malformed_response",
  "not_configured",
  "other",
] as const;

/** What stopped a model call, as a reader groups it. */
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** The kind of an error thrown by an LLM call (an unusable reply is not thrown: callers say so). */
export function failureKindOf(error: unknown): FailureKind {
  if (!LlmError.isInstance(error)) return "other";
  switch (error.name) {
    case "LlmHttpError":
      return "http";
    case "LlmTimeoutError":
      return "timeout";
    case "LlmConnectionError":
      return "connection";
    case "LlmResponseError":
      return "malformed_response";
    case "LlmConfigError":
      return "not_configured";
    default:
      return "other";
  }
}

export interface FailureGroup {
  kind: FailureKind;
  count: number;
  /** The first message of the kind, as an example. */
  example: string;
}

/** Failures grouped by kind, the most frequent first (first seen first among equals). */
export function groupFailures(
  failures: readonly { kind: FailureKind; message: string }[],
): FailureGroup[] {
  const groups = new Map<FailureKind, FailureGroup>();
  for (const { kind, message } of failures) {
    const group = groups.get(kind);
    if (group) group.count++;
    else groups.set(kind, { kind, count: 1, example: message });
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

/** One line per kind, in English (text/user-messages.ts words it in Chinese too): "24 × the model's server answered with an error (e.g. HTTP 500 …)". */
export function describeFailures(groups: readonly FailureGroup[]): string {
  return groups
    .map((g) => `${g.count} × ${failureKindWords(g.kind, "en")} (e.g. ${g.example})`)
    .join("; ");
}
