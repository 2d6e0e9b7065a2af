// The built-in RAG bot, end to end: seed 001's quality loop retrieves (and rewrites while the
// grade is low), seed 000's answer loop writes and reviews the answer, and the evidence gate's
// verdict on the final answer decides whether it is shown, shown with a warning or refused.

import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { GateAction, GateConfig, GateVerdict } from "../../gate/index.js";
import type { JudgesConfig } from "../../judges/index.js";
import type { LlmClients } from "../../llm/index.js";
import { RetrievalSourceSchema, type RetrievedHit, type Retriever } from "../types.js";
import {
  type AnswerExitReason,
  type AnswerState,
  type LoopLogger,
  processWarningLogger,
  runAnswerLoop,
} from "./answer-loop.js";
import { GATE_NOTICES } from "./answer-loop.prompts.js";
import { DEFAULT_LOOPS_CONFIG, type LoopsConfig, LoopsConfigError } from "./config.js";
import { gateVerdictFor } from "./gate-input.js";
import type { AppendObservations, ObservationOutcome } from "./observations.js";
import {
  type QualityExitReason,
  type QualityState,
  type QuestionRouter,
  runQualityLoop,
} from "./quality-loop.js";
import type { TraceStep } from "./state-machine.js";
import { codedMessage } from "../../text/index.js";

/** The evidence gate's step in plain words, by what it does with the answer. */
const GATE_STEP = {
  show: "trace.gate_show",
  show_with_warning: "trace.gate_warn",
  refuse: "trace.gate_refuse",
} as const satisfies Record<GateAction, string>;

export const AskInputSchema = z.object({
  question: z.string().trim().min(1, "a non-empty question").max(10_000),
  collection_id: z.string().trim().min(1, "a non-empty collection id").max(256),
  conversation_id: z.string().trim().min(1).max(256).optional(),
  message_id: z.string().trim().min(1).max(256).optional(),
  /** Sources retrieval may use; default all three. */
  sources: z.array(RetrievalSourceSchema).min(1).optional(),
});
export type AskInput = z.input<typeof AskInputSchema> & { signal?: AbortSignal };

export interface AskContext {
  /** rag/retrieval's retriever (or any function with its contract). */
  retrieve: Retriever;
  /** rag/retrieval's questionRouter; default: every available source. */
  questionRouter?: QuestionRouter;
  /** rag/store's appendObservations with the database bound; default: file only. */
  appendObservations?: AppendObservations;
  /** One client per role (createLlmClients); a role left out works offline. */
  llm?: Partial<Pick<LlmClients, "generator" | "judge" | "rewriter">>;
  config?: LoopsConfig;
  gate?: GateConfig;
  judges?: JudgesConfig;
  logger?: LoopLogger;
  now?: () => Date;
}

export interface AskResponse {
  action: GateAction;
  /** The answer to show; null when the gate refuses it. */
  answer: string | null;
  /** The warning or refusal shown with it. */
  notice: string | null;
}

export interface AskResult {
  question: string;
  collection_id: string;
  conversation_id: string;
  message_id: string;
  /** The final retrieval, best first, each hit with its sources and scores. */
  hits: RetrievedHit[];
  quality: QualityState;
  quality_exit: QualityExitReason;
  answer: AnswerState;
  answer_exit: AnswerExitReason;
  final_answer: string;
  /** node_ids the final answer cites. */
  citations: string[];
  gate: GateVerdict;
  action: GateAction;
  response: AskResponse;
  /** Written only when the answer passed review. */
  observations: ObservationOutcome | null;
  warnings: string[];
  /** Both loops' steps and the gate, with times from the start of the ask. */
  trace: TraceStep[];
  duration_ms: number;
}

export class AskInputError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "invalid_request";
  override readonly name = "AskInputError";
  constructor(
    readonly field: string,
    readonly expected: string,
  ) {
    super(`ask: ${field}: expected ${expected}`);
  }
}

function parseAskInput(input: AskInput): z.infer<typeof AskInputSchema> {
  const result = AskInputSchema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new AskInputError(
    issue?.path.map(String).join(".") || "(input)",
    issue?.message ?? "a valid input",
  );
}

function responseFor(gate: GateVerdict, answer: string, language: "en" | "zh"): AskResponse {
  const notices = GATE_NOTICES[language];
  const flagged = gate.checks
    .filter((c) => c.status === (gate.status === "fail" ? "fail" : "warn"))
    .map((c) => c.name)
    .join(", ");
  switch (gate.action) {
    case "show":
      return { action: "show", answer, notice: null };
    case "show_with_warning":
      return {
        action: "show_with_warning",
        answer,
        notice: notices.warning(flagged || gate.status),
      };
    case "refuse":
      return { action: "refuse", answer: null, notice: notices.refusal(flagged || gate.status) };
  }
}

/**
 * Answers a question over a collection and returns everything that happened: hits with their
 * sources, each grading and rewrite, each generation and evaluation, the answer with its
 * citations, the gate's verdict and action, and the step trace.
 */
export async function ask(input: AskInput, ctx: AskContext): Promise<AskResult> {
  const started = performance.now();
  const parsed = parseAskInput(input);
  const config = ctx.config ?? DEFAULT_LOOPS_CONFIG;
  const llm = ctx.llm ?? {};
  if (llm.judge !== undefined && llm.judge === llm.generator) {
    throw new LoopsConfigError(
      "llm.judge",
      "a client separate from the generator's (the review never shares its client)",
    );
  }
  const conversation_id = parsed.conversation_id ?? randomUUID();
  const message_id = parsed.message_id ?? randomUUID();

  const quality = await runQualityLoop(
    {
      question: parsed.question,
      collection_id: parsed.collection_id,
      sources: parsed.sources,
      signal: input.signal,
    },
    {
      retrieve: ctx.retrieve,
      questionRouter: ctx.questionRouter,
      rewriter: llm.rewriter,
      config,
    },
  );
  const answerStart = performance.now() - started;
  const answer = await runAnswerLoop(
    {
      question: parsed.question,
      collection_id: parsed.collection_id,
      hits: quality.state.fused_results,
      retrieval_query: quality.state.query,
      signal: input.signal,
    },
    {
      generator: llm.generator,
      judge: llm.judge,
      appendObservations: ctx.appendObservations,
      config,
      judges: ctx.judges,
      gate: ctx.gate,
      logger: ctx.logger,
      now: ctx.now,
    },
  );

  const gateStart = performance.now();
  const state = answer.state;
  const gate = gateVerdictFor(
    {
      conversation_id,
      message_id,
      retrieval_query: quality.state.query,
      hits: state.hits,
      answer: state.final_answer,
      citations: state.citations,
      model: state.generations.at(-1)?.model ?? "none",
    },
    ctx.gate,
  );
  const gateEnd = performance.now();
  const trace: TraceStep[] = [
    ...quality.trace,
    ...answer.trace.map((step) => ({ ...step, started_ms: step.started_ms + answerStart })),
    {
      machine: "ask",
      node: "evidence_gate",
      started_ms: gateStart - started,
      duration_ms: gateEnd - gateStart,
      summary: `status=${gate.status} action=${gate.action}`,
      summary_message: codedMessage(GATE_STEP[gate.action]),
      next: "__end__",
    },
  ];
  const warnings = [...answer.warnings];
  if (quality.exit_reason === "timeout") {
    const warning = `quality loop: budget of ${config.quality.budget_ms} ms exhausted; generating from the last retrieval`;
    warnings.unshift(warning);
    (ctx.logger ?? processWarningLogger).warn(warning, { question: parsed.question });
  }
  return {
    question: parsed.question,
    collection_id: parsed.collection_id,
    conversation_id,
    message_id,
    hits: quality.state.fused_results,
    quality: quality.state,
    quality_exit: quality.exit_reason,
    answer: state,
    answer_exit: answer.exit_reason,
    final_answer: state.final_answer,
    citations: state.citations,
    gate,
    action: gate.action,
    response: responseFor(gate, state.final_answer, state.language),
    observations: answer.observations,
    warnings,
    trace,
    duration_ms: gateEnd - started,
  };
}
