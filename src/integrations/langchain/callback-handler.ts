// A LangChain callback handler that records each question a chain or graph answers as ragjudge's
// answer record: runs are grouped by their root run (one `invoke` of an LCEL chain or a LangGraph
// graph), the last retriever run's documents become the hits and the last LLM run's text the
// answer. Optionally it runs the evidence gate on the answer as the root run ends.
//
// LangChain's callbacks observe a run; they cannot change its output or its metadata once it has
// started. So the verdict reaches the app through `onAnswer` and `verdictOf(runId)`, and the
// server through the record's metadata (`gate_decision`).

import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { DocumentInterface } from "@langchain/core/documents";
import type { BaseMessage } from "@langchain/core/messages";
import type { LLMResult } from "@langchain/core/outputs";
import type { ChainValues } from "@langchain/core/utils/types";
import {
  type AnswerInput,
  createRecorder,
  type Recorder,
  type RecorderOptions,
} from "../../client/index.js";
import {
  EvaluatorInputSchema,
  guard,
  type GuardOptions,
  type GuardResult,
} from "../../gate/index.js";
import { answerRecordOf, type RecordLabels, type RootRunTrace } from "./answer-record.js";

export interface RagjudgeCallbackHandlerOptions extends RecordLabels {
  /**
   * Where records go: a recorder of `ragjudge/client`, or `null` to record nothing (gate only).
   * Default: a new recorder from `client` (or RAGJUDGE_URL and RAGJUDGE_TOKEN).
   */
  recorder?: Recorder | null;
  /** Options of the recorder made when `recorder` is not given. */
  client?: RecorderOptions;
  /** Run the evidence gate (`guard`) on each answer: `true`, or the guard's options. */
  gate?: boolean | GuardOptions;
  /** Called with each record as its root run ends, and the gate's result when `gate` is on. */
  onAnswer?: (record: AnswerInput, gate: GuardResult | undefined) => void | Promise<void>;
}

/** Verdicts kept for `verdictOf`. */
const MAX_VERDICTS = 1_000;

/** The text of an LLM run's first generation: a chat message's content or a completion. */
function generatedText(output: LLMResult): string {
  const first = output.generations[0]?.[0] as
    { text?: string; message?: { content?: unknown } } | undefined;
  if (!first) return "";
  if (typeof first.text === "string" && first.text) return first.text;
  const content = first.message?.content;
  return typeof content === "string" ? content : "";
}

function tokenUsage(output: LLMResult): { promptTokens?: number; completionTokens?: number } {
  const fromOutput = output.llmOutput?.tokenUsage as
    { promptTokens?: number; completionTokens?: number } | undefined;
  if (fromOutput?.promptTokens !== undefined) return fromOutput;
  const message = (
    output.generations[0]?.[0] as
      | { message?: { usage_metadata?: { input_tokens?: number; output_tokens?: number } } }
      | undefined
  )?.message;
  const usage = message?.usage_metadata;
  if (!usage) return {};
  return { promptTokens: usage.input_tokens, completionTokens: usage.output_tokens };
}

function modelOf(
  metadata: Record<string, unknown> | undefined,
  extra: Record<string, unknown> | undefined,
): string | undefined {
  if (typeof metadata?.ls_model_name === "string") return metadata.ls_model_name;
  const params = extra?.invocation_params as { model?: unknown; model_name?: unknown } | undefined;
  if (typeof params?.model === "string") return params.model;
  return typeof params?.model_name === "string" ? params.model_name : undefined;
}

function conversationOf(metadata: Record<string, unknown> | undefined): string | undefined {
  for (const key of ["conversation_id", "thread_id", "session_id"]) {
    const value = metadata?.[key];
    if (typeof value === "string" && value) return value.slice(0, 256);
  }
  return undefined;
}

/**
 * Records each root run of a LangChain chain or LangGraph graph as one answer on a ragjudge
 * server. Pass it in `callbacks` of `invoke`/`stream`/`batch`; `flush()` sends what is queued.
 */
export class RagjudgeCallbackHandler extends BaseCallbackHandler {
  name = "ragjudge";
  private readonly recorder: Recorder | null;
  private readonly gateOptions: GuardOptions | undefined;
  /** Each run's root; a root maps to itself. */
  private readonly rootOf = new Map<string, string>();
  private readonly traces = new Map<string, RootRunTrace>();
  /** Open LLM runs' model names and open retriever runs' queries. */
  private readonly models = new Map<string, string>();
  private readonly queries = new Map<string, string>();
  private readonly verdicts = new Map<string, GuardResult>();

  constructor(private readonly options: RagjudgeCallbackHandlerOptions = {}) {
    // Awaited, so the record is queued (and the verdict known) when `invoke` returns.
    super({ _awaitHandler: true });
    this.recorder =
      options.recorder === undefined ? createRecorder(options.client) : options.recorder;
    this.gateOptions =
      options.gate === true ? {} : options.gate === false ? undefined : options.gate;
  }

  /** The gate's result for the answer of the root run `runId` (of the latest 1,000), once it has ended. */
  verdictOf(runId: string): GuardResult | undefined {
    return this.verdicts.get(runId);
  }

  /** Sends every queued record; resolves when the server has them. */
  async flush() {
    return this.recorder?.flush();
  }

  private start(
    runId: string,
    parentRunId: string | undefined,
    inputs: unknown,
    metadata?: Record<string, unknown>,
  ): RootRunTrace {
    // A parent this handler never saw (it was attached below the root) makes this run a root.
    const root = parentRunId !== undefined ? this.rootOf.get(parentRunId) : undefined;
    if (root !== undefined) {
      this.rootOf.set(runId, root);
      return this.traces.get(root)!;
    }
    const conversationId = conversationOf(metadata);
    const trace: RootRunTrace = {
      runId,
      startedAt: Date.now(),
      inputs,
      ...(conversationId ? { conversationId } : {}),
    };
    this.rootOf.set(runId, runId);
    this.traces.set(runId, trace);
    return trace;
  }

  /** At the root's end: forget its runs, and record its answer unless it failed. */
  private async end(runId: string, failed: boolean): Promise<void> {
    const trace = this.traces.get(runId);
    if (!trace) return;
    this.traces.delete(runId);
    for (const [run, root] of this.rootOf) if (root === runId) this.rootOf.delete(run);
    if (failed) return;
    const record = answerRecordOf(trace, Date.now(), this.options);
    if (!record) return;
    let result: GuardResult | undefined;
    if (this.gateOptions) {
      result = guard(EvaluatorInputSchema.parse(record), this.gateOptions);
      this.verdicts.set(runId, result);
      // A long-running app keeps the latest verdicts only; the oldest goes first (Map order).
      if (this.verdicts.size > MAX_VERDICTS)
        this.verdicts.delete(this.verdicts.keys().next().value!);
      record.metadata = { ...record.metadata, gate_decision: result.decision };
    }
    this.recorder?.record(record);
    await this.options.onAnswer?.(record, result);
  }

  // @langchain/core 1.x declares (…, runId, runType, tags, metadata, runName, parentRunId) but
  // calls handlers with (…, runId, parentRunId, tags, metadata, runType, runName): this follows
  // the call (tested with a real chain).
  override handleChainStart(
    _chain: unknown,
    inputs: ChainValues,
    runId: string,
    parentRunId?: string,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ) {
    this.start(runId, parentRunId, inputs, metadata);
  }

  override async handleChainEnd(_outputs: ChainValues, runId: string) {
    await this.end(runId, false);
  }

  override async handleChainError(_error: Error, runId: string) {
    await this.end(runId, true);
  }

  override handleRetrieverStart(
    _retriever: unknown,
    query: string,
    runId: string,
    parentRunId?: string,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ) {
    this.start(runId, parentRunId, query, metadata);
    this.queries.set(runId, query);
  }

  override async handleRetrieverEnd(documents: DocumentInterface[], runId: string) {
    const root = this.rootOf.get(runId);
    const trace = root !== undefined ? this.traces.get(root) : undefined;
    if (trace) trace.retrieval = { runId, query: this.queries.get(runId) ?? "", documents };
    this.queries.delete(runId);
    await this.end(runId, false);
  }

  override async handleRetrieverError(_error: Error, runId: string) {
    this.queries.delete(runId);
    await this.end(runId, true);
  }

  // A tool run (an agent calling a retriever as a tool) is tracked only to link what runs inside
  // it, such as the retriever, to the root.
  override handleToolStart(
    _tool: unknown,
    input: string,
    runId: string,
    parentRunId?: string,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ) {
    this.start(runId, parentRunId, input, metadata);
  }

  override async handleToolEnd(_output: unknown, runId: string) {
    await this.end(runId, false);
  }

  override async handleToolError(_error: unknown, runId: string) {
    await this.end(runId, true);
  }

  override handleLLMStart(
    _llm: unknown,
    prompts: string[],
    runId: string,
    parentRunId?: string,
    extraParams?: Record<string, unknown>,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ) {
    this.start(runId, parentRunId, prompts[prompts.length - 1], metadata);
    const model = modelOf(metadata, extraParams);
    if (model) this.models.set(runId, model);
  }

  override handleChatModelStart(
    _llm: unknown,
    messages: BaseMessage[][],
    runId: string,
    parentRunId?: string,
    extraParams?: Record<string, unknown>,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ) {
    const last = messages[0]?.[messages[0].length - 1];
    this.start(runId, parentRunId, typeof last?.content === "string" ? last.content : "", metadata);
    const model = modelOf(metadata, extraParams);
    if (model) this.models.set(runId, model);
  }

  override async handleLLMEnd(output: LLMResult, runId: string) {
    const root = this.rootOf.get(runId);
    const trace = root !== undefined ? this.traces.get(root) : undefined;
    const model = this.models.get(runId);
    this.models.delete(runId);
    if (trace) {
      trace.generation = {
        runId,
        text: generatedText(output),
        ...(model ? { model } : {}),
        ...tokenUsage(output),
      };
    }
    await this.end(runId, false);
  }

  override async handleLLMError(_error: Error, runId: string) {
    this.models.delete(runId);
    await this.end(runId, true);
  }
}
