// The guardrail: the evidence gate run on an answer before a user sees it, deciding allow, block
// or repair. Pure and synchronous, so it can sit in a request path (bench: `npm run bench -- guard`).

import {
  type GateConfig,
  type EvaluatorInput,
  type GateAction,
  type GateVerdict,
} from "./schema.js";
import { DEFAULT_GATE_CONFIG, resolveGateConfig } from "./config.js";
import { evaluateGate } from "./evaluate.js";
import { type ExplainLanguage, explainCheck } from "./explain.js";
import { type Repair, repairAnswer } from "./repair.js";

export type GuardDecision = "allow" | "block" | "repair";

export interface GuardOptions {
  /** Base gate configuration; the input's own `config` still overrides it. */
  config?: GateConfig;
  /** Try to repair an answer the gate would warn about or refuse (default true). */
  repair?: boolean;
  /** The language of `reasons` (default English). */
  lang?: ExplainLanguage;
}

export interface GuardReason {
  /** The gate check that did not pass. */
  check: string;
  status: "fail" | "warn";
  message: string;
}

export interface GuardResult {
  decision: GuardDecision;
  /** What to show: the answer as given (allow), repaired (repair), or the empty string (block). */
  answer: string;
  citations: EvaluatorInput["generation_output"]["citations"];
  /** Why the answer was not allowed as given, one sentence per check; empty on a clean pass. */
  reasons: GuardReason[];
  /** What the repair changed, when the decision is `repair`. */
  repair?: Omit<Repair, "answer" | "citations" | "changed">;
  /** The gate's verdict on the answer as given. */
  verdict: GateVerdict;
  /** The gate's verdict on the repaired answer, when a repair was tried. */
  repaired_verdict?: GateVerdict;
}

function changesOf({ answer: _a, citations: _c, changed: _changed, ...changes }: Repair) {
  return changes;
}

const ACTION_RANK: Record<GateAction, number> = { refuse: 0, show_with_warning: 1, show: 2 };

function reasonsOf(verdict: GateVerdict, lang: ExplainLanguage): GuardReason[] {
  const reasons: GuardReason[] = [];
  for (const check of verdict.checks) {
    if (check.status !== "fail" && check.status !== "warn") continue;
    const message = explainCheck(check, lang);
    if (message !== undefined) reasons.push({ check: check.name, status: check.status, message });
  }
  return reasons;
}

/**
 * Gates `input` and decides:
 * - `allow` when the gate's action is `show`, or `show_with_warning` and no repair does better;
 * - `repair` when removing unsupported sentences and figures, and fixing citations, gives an
 *   answer with a better action than the original (and something left to show);
 * - `block` when the action is `refuse` and no repair helps.
 * `input` must already satisfy EvaluatorInputSchema.
 */
export function guard(input: EvaluatorInput, options: GuardOptions = {}): GuardResult {
  const base = options.config ?? DEFAULT_GATE_CONFIG;
  const lang = options.lang ?? "en";
  const verdict = evaluateGate(input, base);
  const reasons = reasonsOf(verdict, lang);
  const { answer, citations } = input.generation_output;
  const allowed: GuardResult = { decision: "allow", answer, citations, reasons, verdict };
  if (verdict.action === "show") return allowed;

  if (options.repair !== false) {
    const config = resolveGateConfig(base, input.config);
    const repair = repairAnswer(input, config);
    if (repair.changed && repair.answer.length > 0) {
      const repairedInput: EvaluatorInput = {
        ...input,
        generation_output: { answer: repair.answer, citations: repair.citations },
      };
      const repaired = evaluateGate(repairedInput, base);
      if (ACTION_RANK[repaired.action] > ACTION_RANK[verdict.action]) {
        return {
          decision: "repair",
          answer: repair.answer,
          citations: repair.citations,
          reasons,
          repair: changesOf(repair),
          verdict,
          repaired_verdict: repaired,
        };
      }
    }
  }

  if (verdict.action === "refuse") {
    return { decision: "block", answer: "", citations: [], reasons, verdict };
  }
  return allowed;
}
