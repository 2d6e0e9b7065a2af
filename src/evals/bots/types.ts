import { type ModelUsage, redactSecrets } from "../../llm/index.js";
import type { GateAction, GateVerdict } from "../../gate/index.js";
import type { AnswerExitReason, QualityExitReason } from "../../rag/index.js";
import type { TraceStep } from "../../rag/index.js";
import { RESULT_ERROR_KINDS } from "../../store/index.js";

/** One retrieved source an answer stands on, as the evaluation stores and shows it. */
export interface BotSource {
  node_id: string;
  content: string;
  /** The retrieval source (lexical, vector, memory) or the external bot's own label. */
  source?: string;
  score?: number;
  title?: string;
  /** The user's id of the source's document (the built-in bot: the id given at ingest). */
  document_id?: string;
}

/** What a bot gives back for one question. */
export interface BotAnswer {
  answer: string;
  /** node_ids the answer cites (each should be one of `contexts`). */
  citations: string[];
  /** The retrieved sources, best first. */
  contexts: BotSource[];
  /** The built-in bot's loop trace, or an external bot's tool calls, as it returned them. */
  trace: TraceStep[] | unknown[];
  latency_ms: number;
  usage?: { prompt_tokens: number; completion_tokens: number; calls: number };
  /** The same tokens by role and model, so they can be priced (docs/cost.md). */
  usage_by_model?: ModelUsage[];
  /** HTTP attempts it took (an external bot only; 1 when the first succeeded). */
  attempts?: number;
  /** The built-in bot's own verdict on its answer; the runner re-runs the gate itself anyway. */
  builtin?: BuiltinOutcome;
  /**
   * Models that failed and were replaced (the built-in bot with `answer.llm_fallback` only): one
   * entry per replaced generation or review, naming the model and why.
   */
  fallbacks?: string[];
}

export interface BuiltinOutcome {
  gate: GateVerdict;
  action: GateAction;
  quality_exit: QualityExitReason;
  answer_exit: AnswerExitReason;
}

export interface BotAskOptions {
  question: string;
  signal: AbortSignal;
}

/**
 * A RAG system under evaluation. `ask` throws BotError when the bot failed (after its own retries);
 * `kind` says whether it was unreachable (a run fails fast on that) or answered badly.
 */
export interface Bot {
  /** Shown in reports; never holds a secret. */
  describe(): { kind: "builtin" | "http" | "answers"; name: string };
  ask(options: BotAskOptions): Promise<BotAnswer>;
  /**
   * A cheap check, before a run's first question, that the bot can be reached at all; throws
   * BotError("unreachable") so a run fails fast instead of recording one error per question.
   */
  probe?(signal: AbortSignal): Promise<void>;
}

/**
 * `model`: a model the built-in bot was configured with failed (after the client's retries);
 * `database`: the built-in bot lost its database connection (retryable: it may come back).
 */
export type BotErrorKind = Exclude<(typeof RESULT_ERROR_KINDS)[number], "error">;
/** The kinds a result stores for a BotError (the store's list, which adds `error` for the rest). */
export const BOT_ERROR_KINDS = RESULT_ERROR_KINDS.filter(
  (kind): kind is BotErrorKind => kind !== "error",
);

/**
 * A bot's failure, typed: `kind` says what went wrong, `retryable` whether asking again may help
 * (llm's withRetries decides on it, as for LLM errors), `retryAfterMs` what the bot asked for.
 */
export class BotError extends Error {
  override readonly name = "BotError";
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(
    readonly kind: BotErrorKind,
    message: string,
    readonly status?: number,
    options: { retryable?: boolean; retryAfterMs?: number | undefined } = {},
  ) {
    // A bot may echo the credentials it was sent; no message leaves here unredacted.
    super(redactSecrets(message));
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
  }
}
