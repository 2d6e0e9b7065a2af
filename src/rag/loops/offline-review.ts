// The review step without a judge LLM: the evidence gate's deterministic checks stand in for the
// review judge. The answer passes unless a check fails (a warning passes, as the gate shows it);
// a failing answer gets one actionable suggestion per problem the checks found, fail or warn.

import type { GateConfig, GateVerdict } from "../../gate/index.js";
import type { PromptLanguage, ReviewVerdict } from "../../judges/index.js";
import { type GateInputSource, gateVerdictFor } from "./gate-input.js";
import { OFFLINE_SUGGESTIONS } from "./offline-review.messages.js";

export interface OfflineReview {
  verdict: ReviewVerdict;
  gate: GateVerdict;
}

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
}

/** Suggestions for every failing or warning check of a verdict. */
export function suggestionsFromGate(gate: GateVerdict, language: PromptLanguage): string[] {
  const m = OFFLINE_SUGGESTIONS[language];
  const out: string[] = [];
  for (const check of gate.checks) {
    if (check.status !== "fail" && check.status !== "warn") continue;
    const d = check.detail;
    switch (check.name) {
      case "no_empty_answer":
        out.push(m.no_empty_answer(d));
        break;
      case "require_citations":
        out.push(m.require_citations());
        break;
      case "citation_coverage":
        out.push(m.citation_coverage(d));
        break;
      case "min_answer_length":
        out.push(m.min_answer_length(d));
        break;
      case "citation_markers":
        out.push(m.citation_markers(d));
        break;
      case "sentence_support":
        for (const item of records(d.unsupported)) {
          const missing = Array.isArray(item.missing) ? item.missing.map(String).join(", ") : "";
          out.push(m.unsupported_sentence(String(item.sentence), missing));
        }
        break;
      case "numeric_consistency":
        for (const item of records(d.missing)) {
          out.push(m.missing_number(String(item.raw), String(item.sentence)));
        }
        break;
      case "honest_abstention":
        out.push(m.honest_abstention());
        break;
    }
  }
  return out;
}

/** Seed 000's `{passed, suggestions}` from the evidence gate, with no model call. */
export function offlineReview(
  source: GateInputSource,
  language: PromptLanguage,
  config?: GateConfig,
): OfflineReview {
  const gate = gateVerdictFor(source, config);
  const passed = gate.status !== "fail";
  return {
    verdict: { passed, suggestions: passed ? [] : suggestionsFromGate(gate, language) },
    gate,
  };
}
