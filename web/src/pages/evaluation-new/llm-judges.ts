import type { JudgeKind } from "../../api/types";

// The judges that ask the judge model (the server's `needsLlm`): the new-run form disables them,
// with the reason, when the server has no judge LLM. A new judge kind fails to compile here.
const NEEDS_LLM: Record<JudgeKind, boolean> = {
  review: true,
  rubric: true,
  reference: true,
  offline: false,
  token_precision: false,
  contains_reference: false,
  claims: true,
  claims_offline: false,
};

export function judgeNeedsLlm(judge: JudgeKind): boolean {
  return NEEDS_LLM[judge];
}

/** The judges a person may tick: all of them with a judge LLM, else those that need none. */
export function judgeUnavailable(judge: JudgeKind, judgeConfigured: boolean | undefined): boolean {
  return judgeConfigured === false && judgeNeedsLlm(judge);
}
