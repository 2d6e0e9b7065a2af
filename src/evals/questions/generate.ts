import { z } from "zod";
import type { LanguageSetting, PromptLanguage } from "../../judges/index.js";
import { type CodedMessage, codedMessage } from "../../text/index.js";
import {
  type CallRecord,
  type ChatMessage,
  type FailureKind,
  generateObject,
  LlmAbortError,
  type LlmClient,
} from "../../llm/index.js";
import {
  chunkLanguage,
  type DocumentChunks,
  type PickedChunk,
  pickChunksRoundRobin,
} from "./chunks.js";
import { questionKey } from "./duplicates.js";
import { QuestionGenerationError } from "./errors.js";
import {
  fillGenerationPrompt,
  GENERATION_PROMPTS,
  GENERATION_SYSTEM_PROMPTS,
  TYPE_RESTRICTION_PROMPTS,
  validateGenerationPrompt,
} from "./generate.prompts.js";
import { type GeneratedQuestionType, heuristicQuestions } from "./heuristic.js";
import { QUESTION_LIMITS, type QuestionInput, QuestionInputSchema } from "./schema.js";

export const GENERATED_QUESTION_TYPES = ["FACTUAL", "INFERENTIAL"] as const;

export const GENERATION_DEFAULTS = {
  /** Questions asked of one chunk: enough for both types, few enough to spread over documents. */
  questionsPerChunk: 3,
  /** Chunks asked at once. */
  concurrency: 4,
} as const;

export const HEURISTIC_WARNING = codedMessage("generation.heuristic");

export interface GenerateQuestionsOptions {
  /** The collection's documents and chunks; chunks are taken round-robin across documents. */
  documents: readonly DocumentChunks[];
  /** Questions wanted. Fewer come back (with a warning) when the chunks run out. */
  n: number;
  /** Default both. */
  types?: readonly GeneratedQuestionType[];
  /** The generator role's client; without one the heuristic generator is used. */
  client?: LlmClient;
  /** A user-edited template in place of seed 003's; must contain {document_content}. */
  prompt?: string;
  /** "auto" (default) picks the Chinese template for a mostly Chinese chunk. */
  language?: LanguageSetting;
  signal?: AbortSignal;
  /** Called after each round of chunks with the questions collected so far and `n`. */
  onProgress?: (done: number, total: number) => void;
  /** Question texts already in the set: never generated again. */
  existing?: Iterable<string>;
  questionsPerChunk?: number;
  concurrency?: number;
}

/** A generated question keeps the chunk it came from as its evidence. */
export type GeneratedQuestion = QuestionInput & {
  question_type: GeneratedQuestionType;
  reference_context: string;
  source_chunk_id: string;
  document_id: string;
};

export interface GenerateQuestionsResult {
  questions: GeneratedQuestion[];
  /** True when no LLM was used: the questions are the heuristic generator's. */
  heuristic: boolean;
  /** Every LLM call made, re-asks included. */
  calls: CallRecord[];
  /** Chunks whose reply was unusable, items dropped, a short result; never fatal. */
  warnings: CodedMessage[];
  /** Each chunk whose reply gave no usable question, and why (grouped by a caller). */
  unusable: { kind: FailureKind; message: string }[];
}

const OptionsSchema = z.object({
  n: z.number().int().min(1).max(QUESTION_LIMITS.questionsPerSet),
  types: z.array(z.enum(GENERATED_QUESTION_TYPES)).min(1, "at least one type").optional(),
  language: z.enum(["en", "zh", "auto"]).optional(),
  questionsPerChunk: z.number().int().min(1).max(20).optional(),
  concurrency: z.number().int().min(1).max(64).optional(),
});

// What the model returns: seed 003's list, or {questions: [...]} from a json_object server. Items
// are checked one by one afterwards, so one bad item does not cost the chunk's other questions.
const LenientReplySchema = z.union([
  z.array(z.unknown()),
  z.object({ questions: z.array(z.unknown()) }),
]);
// json_schema servers need an object at the root and a complete item schema.
const StrictReplySchema = z.object({
  questions: z.array(
    z.object({
      question_type: z.enum(GENERATED_QUESTION_TYPES),
      question_text: z.string(),
      ground_truth: z.string(),
    }),
  ),
});

const GeneratedItemSchema = z.object({
  question_type: z
    .string()
    .transform((type) => type.trim().toUpperCase())
    .pipe(z.enum(GENERATED_QUESTION_TYPES)),
  question_text: z.string().trim().min(1, "a non-empty question"),
  ground_truth: z.string().trim().min(1, "a non-empty ground truth"),
});
type GeneratedItem = z.infer<typeof GeneratedItemSchema>;

interface ChunkOutcome {
  candidates: GeneratedItem[];
  calls: CallRecord[];
  warnings: CodedMessage[];
  /** Why the reply gave no candidate at all, when it gave none. */
  unusable?: { kind: FailureKind; message: string };
}

/**
 * Seed 003 section 5.2: questions with ground truths from a collection's chunks. One LLM call per
 * chunk, asking for a few questions, until `n` distinct questions are collected or the chunks run
 * out, so every question keeps its own chunk as reference_context. Without a client a
 * deterministic heuristic generator stands in (result.heuristic). An unusable reply is a warning;
 * transport errors and cancellation throw.
 */
export async function generateQuestions(
  options: GenerateQuestionsOptions,
): Promise<GenerateQuestionsResult> {
  const parsed = OptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new QuestionGenerationError(
      issue?.path.map(String).join(".") || "(options)",
      issue?.message ?? "valid options",
    );
  }
  const { n, client, signal } = options;
  const types = options.types ?? GENERATED_QUESTION_TYPES;
  const prompt =
    options.prompt === undefined ? undefined : validateGenerationPrompt(options.prompt);
  const perChunk = options.questionsPerChunk ?? GENERATION_DEFAULTS.questionsPerChunk;
  const concurrency = client ? (options.concurrency ?? GENERATION_DEFAULTS.concurrency) : 1;

  const chunks = pickChunksRoundRobin(options.documents);
  if (chunks.length === 0) {
    throw new QuestionGenerationError("documents", "no chunk with text to generate questions from");
  }

  const seen = new Set<string>();
  for (const text of options.existing ?? []) seen.add(questionKey(text));
  const questions: GeneratedQuestion[] = [];
  const calls: CallRecord[] = [];
  const warnings: CodedMessage[] = client ? [] : [HEURISTIC_WARNING];
  const unusable: GenerateQuestionsResult["unusable"] = [];
  let repeats = 0;
  let next = 0;

  while (questions.length < n && next < chunks.length) {
    if (signal?.aborted) throw new LlmAbortError("question generation was cancelled");
    const remaining = n - questions.length;
    const ask = Math.min(perChunk, remaining);
    const round = chunks.slice(next, next + Math.min(concurrency, Math.ceil(remaining / ask)));
    next += round.length;
    const outcomes = await Promise.all(
      round.map((chunk) => {
        const language = languageOf(options.language, chunk.content);
        const context = { chunk, ask, types, language };
        return client
          ? askModel({ ...context, client, prompt, signal })
          : Promise.resolve(askHeuristic(context));
      }),
    );
    // Merged in chunk order, so the result does not depend on which reply came first.
    outcomes.forEach((outcome, index) => {
      const chunk = round[index] as PickedChunk;
      calls.push(...outcome.calls);
      warnings.push(...outcome.warnings);
      if (outcome.unusable) unusable.push(outcome.unusable);
      let taken = 0;
      for (const item of outcome.candidates) {
        if (taken >= ask || questions.length >= n) break;
        const key = questionKey(item.question_text);
        if (seen.has(key)) {
          repeats++;
          continue;
        }
        const question = generatedQuestion(item, chunk);
        if (typeof question === "string") {
          warnings.push(
            codedMessage("generation.question_dropped", {
              ...chunkParams(chunk),
              problem: question,
            }),
          );
          continue;
        }
        seen.add(key);
        questions.push(question);
        taken++;
      }
    });
    options.onProgress?.(questions.length, n);
  }

  if (repeats > 0) {
    warnings.push(codedMessage("generation.repeats", { n: repeats }));
  }
  if (questions.length < n) {
    warnings.push(
      codedMessage("generation.too_few", {
        made: questions.length,
        asked: n,
        chunks: chunks.length,
      }),
    );
  }
  return { questions, heuristic: client === undefined, calls, warnings, unusable };
}

function languageOf(setting: LanguageSetting | undefined, content: string): PromptLanguage {
  return setting === undefined || setting === "auto" ? chunkLanguage(content) : setting;
}

/** Which passage a warning is about, as its message's parameters. */
function chunkParams(chunk: PickedChunk): { chunk: string; document: string } {
  return { chunk: chunk.chunk_id, document: chunk.document_id };
}

/** The chunk as evidence and prompt text, cut to what a reference_context may hold. */
function evidenceOf(chunk: PickedChunk): string {
  return chunk.content.slice(0, QUESTION_LIMITS.referenceContextChars);
}

function generatedQuestion(item: GeneratedItem, chunk: PickedChunk): GeneratedQuestion | string {
  const reference_context = evidenceOf(chunk);
  const result = QuestionInputSchema.safeParse({ ...item, reference_context });
  if (!result.success) {
    const issue = result.error.issues[0];
    return `${issue?.path.join(".") ?? "(question)"}: ${issue?.message ?? "invalid"}`;
  }
  return {
    ...result.data,
    question_type: item.question_type,
    reference_context,
    source_chunk_id: chunk.chunk_id,
    document_id: chunk.document_id,
  };
}

interface ChunkRequest {
  chunk: PickedChunk;
  ask: number;
  types: readonly GeneratedQuestionType[];
  language: PromptLanguage;
}

function askHeuristic({ chunk, types, language }: ChunkRequest): ChunkOutcome {
  const candidates = heuristicQuestions(chunk.content, { types, language });
  const warnings =
    candidates.length === 0 ? [codedMessage("generation.no_fact", chunkParams(chunk))] : [];
  return { candidates, calls: [], warnings };
}

async function askModel(
  request: ChunkRequest & { client: LlmClient; prompt: string | undefined; signal?: AbortSignal },
): Promise<ChunkOutcome> {
  const { chunk, ask, types, language, client } = request;
  const messages = generationMessages(request.prompt ?? GENERATION_PROMPTS[language], {
    content: evidenceOf(chunk),
    ask,
    types,
    language,
  });
  const strict = client.structuredOutput === "json_schema";
  const reply = await generateObject<unknown>({
    client,
    messages,
    schema: strict ? StrictReplySchema : LenientReplySchema,
    schemaName: "generated_questions",
    signal: request.signal,
  });
  if (!reply.ok) {
    return {
      candidates: [],
      calls: reply.calls,
      warnings: [
        codedMessage("generation.unusable_reply", { ...chunkParams(chunk), error: reply.error }),
      ],
      unusable: { kind: "unusable_reply", message: reply.error },
    };
  }
  const items = Array.isArray(reply.value)
    ? reply.value
    : (reply.value as { questions: unknown[] }).questions;
  const candidates: GeneratedItem[] = [];
  const problems: string[] = [];
  let otherTypes = 0;
  items.forEach((item, index) => {
    const result = GeneratedItemSchema.safeParse(item);
    if (!result.success) {
      const issue = result.error.issues[0];
      problems.push(`item ${index + 1}: ${issue?.path.join(".") || "(item)"}: ${issue?.message}`);
    } else if (!types.includes(result.data.question_type)) {
      otherTypes++;
    } else {
      candidates.push(result.data);
    }
  });
  const warnings: CodedMessage[] = [];
  if (problems.length > 0) {
    warnings.push(
      codedMessage("generation.unusable_items", {
        ...chunkParams(chunk),
        n: problems.length,
        problems: problems.join("; "),
      }),
    );
  }
  if (otherTypes > 0) {
    warnings.push(
      codedMessage("generation.unrequested_types", { ...chunkParams(chunk), n: otherTypes }),
    );
  }
  return {
    candidates,
    calls: reply.calls,
    warnings,
    ...(candidates.length === 0 && problems.length > 0
      ? { unusable: { kind: "unusable_reply" as const, message: problems.join("; ") } }
      : {}),
  };
}

/** The system and user messages for one chunk. */
export function generationMessages(
  template: string,
  values: {
    content: string;
    ask: number;
    types: readonly GeneratedQuestionType[];
    language: PromptLanguage;
  },
): ChatMessage[] {
  let user = fillGenerationPrompt(template, { document_content: values.content, N: values.ask });
  if (values.types.length < GENERATED_QUESTION_TYPES.length) {
    const restriction = TYPE_RESTRICTION_PROMPTS[values.language];
    user += `\n\n${restriction.replace("{types}", values.types.join(", "))}`;
  }
  return [
    { role: "system", content: GENERATION_SYSTEM_PROMPTS[values.language] },
    { role: "user", content: user },
  ];
}
