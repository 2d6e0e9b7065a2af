// The evidence gate as AI SDK middleware: `wrapLanguageModel({ model, middleware:
// ragjudgeGuard({ sources }) })`. After the model answers, the guardrail (gate/guard.ts) checks
// the text against the retrieved sources and, by mode, annotates it with the verdict, blocks it
// with a typed error, or repairs it. Only types are imported from `ai`: it is an optional peer.

import type { LanguageModelMiddleware } from "ai";
import type { AnswerInput as AnswerInputIn } from "../../client/index.js";
import {
  type EvaluatorInput,
  EvaluatorInputSchema,
  type GateConfig,
  guard,
  type GuardResult,
} from "../../gate/index.js";

type WrapGenerate = NonNullable<LanguageModelMiddleware["wrapGenerate"]>;
type WrapStream = NonNullable<LanguageModelMiddleware["wrapStream"]>;
/** The model call's options (prompt, providerOptions, ...), as the middleware receives them. */
export type CallParams = Parameters<WrapGenerate>[0]["params"];
type GenerateResult = Awaited<ReturnType<WrapGenerate>>;
type StreamResult = Awaited<ReturnType<WrapStream>>;
type StreamPart = StreamResult["stream"] extends ReadableStream<infer Part> ? Part : never;

/** A retrieved passage the answer may cite, by `[id]` or by its 1-based position `[n]`. */
export interface RagjudgeSource {
  id: string;
  content: string;
  title?: string;
  score?: number;
}

export type RagjudgeGuardMode = "annotate" | "block" | "repair";

export interface RagjudgeGuardOptions {
  /**
   * The sources the answer is checked against. Default: the call's
   * `providerOptions.ragjudge.sources` (an array of {id, content}).
   */
  sources?: (params: CallParams) => RagjudgeSource[] | Promise<RagjudgeSource[]>;
  /**
   * - `annotate`: the text is never changed; the verdict rides in `providerMetadata.ragjudge`,
   *   and a stream's text flows through as it arrives;
   * - `block` (default): a blocked answer throws RagjudgeBlockedError (an `error` part in a
   *   stream), and nothing of a stream's text is released before the verdict;
   * - `repair`: as `block`, but an answer the guard can repair is replaced by the repaired text.
   */
  mode?: RagjudgeGuardMode;
  /** The gate's configuration (checks, thresholds, actions); defaults otherwise. */
  config?: GateConfig;
  /** The language of the reasons. */
  lang?: "en" | "zh";
  /** Called with every verdict. */
  onVerdict?: (result: GuardResult, input: EvaluatorInput) => void | Promise<void>;
  /**
   * Records every checked answer on a ragjudge server, as production traffic: a recorder from
   * `ragjudge/client` (`createRecorder()`), or anything with its `record(answer)`. The record
   * carries the model, the latency, the tokens, and `recordAs`.
   */
  record?: { record(answer: AnswerInputIn): void };
  /** What the recorded answers are filed under: service, collection, metadata, session. */
  recordAs?: Pick<AnswerInputIn, "service" | "collection" | "metadata" | "session_id">;
}

/** What the model call said about itself, for the record. */
interface CallFacts {
  model: string;
  startedAt: number;
  usage?: Usage;
}
type Usage = GenerateResult["usage"];

const ERROR_MARK = Symbol.for("ragjudge.RagjudgeBlockedError");

/** The answer was refused by the evidence gate; `result` holds the verdict and the reasons. */
export class RagjudgeBlockedError extends Error {
  readonly [ERROR_MARK] = true;
  override readonly name = "RagjudgeBlockedError";

  constructor(readonly result: GuardResult) {
    super(
      `The answer was blocked by the evidence gate: ${result.reasons.map((r) => r.message).join(" ") || result.verdict.status}`,
    );
  }

  /** Works across copies of the package, as the AI SDK's own errors do. */
  static isInstance(error: unknown): error is RagjudgeBlockedError {
    return typeof error === "object" && error !== null && ERROR_MARK in error;
  }
}

/** The verdict as JSON the AI SDK carries in providerMetadata. */
function metadataOf(result: GuardResult) {
  return {
    decision: result.decision,
    status: result.verdict.status,
    action: result.verdict.action,
    rule_version: result.verdict.rule_version,
    reasons: result.reasons.map((r) => ({ check: r.check, status: r.status, message: r.message })),
    ...(result.decision === "repair" ? { repaired_text: result.answer } : {}),
  };
}

function sourcesFromOptions(params: CallParams): RagjudgeSource[] {
  const sources = (params.providerOptions?.ragjudge as { sources?: unknown } | undefined)?.sources;
  if (sources === undefined) return [];
  if (!Array.isArray(sources)) {
    throw new TypeError("providerOptions.ragjudge.sources must be an array of {id, content}");
  }
  return sources as RagjudgeSource[];
}

/** The last user message's text: the question the answer is checked for. */
function questionOf(params: CallParams): string | undefined {
  for (let i = params.prompt.length - 1; i >= 0; i--) {
    const message = params.prompt[i];
    if (message?.role !== "user") continue;
    return message.content
      .map((part) => (part.type === "text" ? part.text : ""))
      .join("")
      .slice(0, 200_000);
  }
  return undefined;
}

let sequence = 0;

function gateInput(
  params: CallParams,
  sources: RagjudgeSource[],
  answer: string,
  model: string,
): EvaluatorInput {
  const id = `ai-sdk-${Date.now().toString(36)}-${(sequence++).toString(36)}`;
  return EvaluatorInputSchema.parse({
    conversation_id: id,
    message_id: id,
    retrieval_record: { id, query: questionOf(params) },
    retrieval_hits: sources.map((source) => ({
      node_id: source.id,
      content: source.content,
      ...(source.score !== undefined ? { score: source.score } : {}),
      ...(source.title !== undefined ? { title: source.title } : {}),
    })),
    generation_record: { id, model: model.slice(0, 256) },
    generation_output: { answer, citations: [] },
  });
}

/** The checked answer as a production answer record (issue 24 §1). */
function answerRecord(
  input: EvaluatorInput,
  facts: CallFacts,
  recordAs: RagjudgeGuardOptions["recordAs"],
): AnswerInputIn {
  const prompt = facts.usage?.inputTokens.total;
  const completion = facts.usage?.outputTokens.total;
  return {
    ...input,
    ...recordAs,
    latency_ms: Math.max(0, Date.now() - facts.startedAt),
    ...(prompt !== undefined || completion !== undefined
      ? {
          usage: {
            ...(prompt !== undefined ? { prompt_tokens: prompt } : {}),
            ...(completion !== undefined ? { completion_tokens: completion } : {}),
          },
        }
      : {}),
  };
}

/**
 * AI SDK middleware that gates each answer on its sources. Works with `generateText` and
 * `streamText`; the verdict is in `providerMetadata.ragjudge` (decision, status, action,
 * reasons).
 */
export function ragjudgeGuard(options: RagjudgeGuardOptions = {}): LanguageModelMiddleware {
  const mode = options.mode ?? "block";
  const readSources = options.sources ?? sourcesFromOptions;

  async function judge(params: CallParams, answer: string, facts: CallFacts): Promise<GuardResult> {
    const input = gateInput(params, await readSources(params), answer, facts.model);
    const result = guard(input, {
      ...(options.config ? { config: options.config } : {}),
      ...(options.lang ? { lang: options.lang } : {}),
      repair: mode === "repair",
    });
    await options.onVerdict?.(result, input);
    options.record?.record(answerRecord(input, facts, options.recordAs));
    return result;
  }

  const wrapGenerate: WrapGenerate = async ({ doGenerate, params, model }) => {
    const startedAt = Date.now();
    const generated: GenerateResult = await doGenerate();
    const text = generated.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    const result = await judge(params, text, {
      model: model.modelId,
      startedAt,
      usage: generated.usage,
    });
    if (mode !== "annotate" && result.decision === "block") throw new RagjudgeBlockedError(result);
    let content = generated.content;
    if (mode === "repair" && result.decision === "repair") {
      // The repaired text replaces the text parts, where the first one was.
      const first = content.findIndex((part) => part.type === "text");
      content = content.filter((part) => part.type !== "text");
      content.splice(Math.max(0, first), 0, { type: "text", text: result.answer });
    }
    return {
      ...generated,
      content,
      providerMetadata: { ...generated.providerMetadata, ragjudge: metadataOf(result) },
    };
  };

  const wrapStream: WrapStream = async ({ doStream, params, model }) => {
    const startedAt = Date.now();
    const streamed: StreamResult = await doStream();
    let text = "";
    let textId: string | undefined;
    // Held back until the verdict, unless annotating.
    const held: StreamPart[] = [];
    const isText = (part: StreamPart) =>
      part.type === "text-start" || part.type === "text-delta" || part.type === "text-end";

    const stream = streamed.stream.pipeThrough(
      new TransformStream<StreamPart, StreamPart>({
        async transform(part, controller) {
          if (part.type === "text-delta") text += part.delta;
          if (part.type === "text-start") textId ??= part.id;
          if (part.type !== "finish") {
            if (mode !== "annotate" && isText(part)) held.push(part);
            else controller.enqueue(part);
            return;
          }
          const result = await judge(params, text, {
            model: model.modelId,
            startedAt,
            usage: part.usage,
          });
          const ragjudge = metadataOf(result);
          if (mode !== "annotate" && result.decision === "block") {
            controller.enqueue({ type: "error", error: new RagjudgeBlockedError(result) });
          } else if (mode === "repair" && result.decision === "repair") {
            const id = textId ?? "ragjudge-repaired";
            controller.enqueue({ type: "text-start", id });
            controller.enqueue({ type: "text-delta", id, delta: result.answer });
            controller.enqueue({ type: "text-end", id });
          } else {
            for (const heldPart of held) controller.enqueue(heldPart);
          }
          controller.enqueue({
            ...part,
            providerMetadata: { ...part.providerMetadata, ragjudge },
          });
        },
      }),
    );
    return { ...streamed, stream };
  };

  return { specificationVersion: "v4", wrapGenerate, wrapStream };
}
