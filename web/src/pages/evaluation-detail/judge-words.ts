// What a judge said, in words a person reads: a model's own reasoning as it wrote it, the offline
// judge's reason and suggestion from their codes in the reader's language.

import { asCodedMessage, type CodedMessage } from "../../../../src/text/user-messages";
import type { JudgeResult } from "../../api/types";

function textOf(value: unknown): string | undefined {
  if (typeof value === "string" && value.trim() !== "") return value;
  if (Array.isArray(value) && value.every((v) => typeof v === "string") && value.length > 0)
    return value.join("\n");
  return undefined;
}

/** A coded sentence the server wrote (the offline judge's reason), or nothing. */
function codedOf(value: unknown): CodedMessage | undefined {
  // Only an object is a code: a plain string here would be read as a "plain" code otherwise.
  return typeof value === "object" ? (asCodedMessage(value) ?? undefined) : undefined;
}

/**
 * A judge's reasoning and suggestions under their usual names, whatever its kind. The offline
 * judge's are codes too (`reason_message`, `suggestion_message`), worded by `say`; results stored
 * before the codes existed show their English `reason` and `suggestion`.
 */
export function judgeWords(
  judge: JudgeResult,
  say: (message: CodedMessage) => string,
): { reasoning?: string; suggestions?: string } {
  // A failed judge said nothing to show: its reason is its error.
  const v: Record<string, unknown> = judge.outcome === "ok" ? judge.verdict : {};
  const reason = codedOf(v.reason_message);
  const suggestion = codedOf(v.suggestion_message);
  return {
    reasoning:
      textOf(v.reasoning) ??
      (reason && say(reason)) ??
      textOf(v.reason) ??
      textOf(v.analysis) ??
      textOf(v.explanation),
    suggestions: textOf(v.suggestions) ?? (suggestion && say(suggestion)) ?? textOf(v.suggestion),
  };
}
