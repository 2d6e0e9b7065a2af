// A result's judge errors grouped by kind, mirroring src/llm/failure-kinds.ts (which the web app
// cannot import: it reads the LLM client's error classes). A judge error's `cause` is "reply"
// (the reply stayed unusable), the LLM error's name, or "error".

import type { JudgeResult } from "../../api/types";

export type JudgeErrorKind =
  | "unusable_reply"
  | "http"
  | "timeout"
  | "connection"
  | "malformed_response"
  | "not_configured"
  | "other";

const KIND_OF_CAUSE: Record<string, JudgeErrorKind> = {
  reply: "unusable_reply",
  LlmHttpError: "http",
  LlmTimeoutError: "timeout",
  LlmConnectionError: "connection",
  LlmResponseError: "malformed_response",
  LlmConfigError: "not_configured",
};

export function judgeErrorKind(cause: string | undefined): JudgeErrorKind {
  return (cause !== undefined && KIND_OF_CAUSE[cause]) || "other";
}

export interface JudgeErrorGroup {
  kind: JudgeErrorKind;
  /** The judges that failed this way, in the order they ran. */
  judges: string[];
}

/** The failed judges grouped by kind, the most frequent first (first seen first among equals). */
export function groupJudgeErrors(judges: Record<string, JudgeResult>): JudgeErrorGroup[] {
  const groups = new Map<JudgeErrorKind, JudgeErrorGroup>();
  for (const [name, judge] of Object.entries(judges)) {
    if (judge.outcome !== "judge_error") continue;
    const kind = judgeErrorKind(judge.error.cause);
    const group = groups.get(kind);
    if (group) group.judges.push(name);
    else groups.set(kind, { kind, judges: [name] });
  }
  return [...groups.values()].sort((a, b) => b.judges.length - a.judges.length);
}
