import type { JudgeOutcome, JudgeKind } from "../judges/index.js";
import { asCodedMessage, type MessageLanguage, wordMessage } from "../text/index.js";

// `ragjudge judge --lang zh --format json|jsonl`: the sentences a verdict carries as codes (the
// offline judge's reason, suggestion, analysis and limits) in the reader's language, in the same
// fields an English reader finds them in. The codes stay beside them.

/** A coded field's words, when `value` is a code (a plain string is not). */
function worded(value: unknown, lang: MessageLanguage): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const coded = asCodedMessage(value);
  return coded ? wordMessage(coded, lang) : undefined;
}

/** A verdict with each `X` that has an `X_message` (and `limits` from `limits_messages`) worded. */
export function verdictInLanguage(verdict: unknown, lang: MessageLanguage): unknown {
  if (lang === "en" || verdict === null || typeof verdict !== "object") return verdict;
  const out: Record<string, unknown> = { ...(verdict as Record<string, unknown>) };
  for (const [key, value] of Object.entries(out)) {
    if (!key.endsWith("_message")) continue;
    const words = worded(value, lang);
    const field = key.slice(0, -"_message".length);
    if (words !== undefined && typeof out[field] === "string") out[field] = words;
  }
  if (Array.isArray(out.limits_messages)) {
    const limits = out.limits_messages.map((limit) => worded(limit, lang));
    if (limits.every((limit) => limit !== undefined)) out.limits = limits;
  }
  return out;
}

/** A line's results with their verdicts worded in `lang`. */
export function resultsInLanguage(
  results: Partial<Record<JudgeKind, JudgeOutcome>>,
  lang: MessageLanguage,
): Partial<Record<JudgeKind, JudgeOutcome>> {
  if (lang === "en") return results;
  return Object.fromEntries(
    Object.entries(results).map(([kind, outcome]) => [
      kind,
      outcome?.outcome === "ok"
        ? { ...outcome, verdict: verdictInLanguage(outcome.verdict, lang) }
        : outcome,
    ]),
  ) as Partial<Record<JudgeKind, JudgeOutcome>>;
}
