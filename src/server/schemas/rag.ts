import { z } from "zod";
import { GateActionSchema } from "../../gate/index.js";
import { CollectionConfigSchema, RetrievalSourceSchema } from "../../rag/index.js";
import { responseSchema } from "../components.js";
import { CodedMessageSchema, Id, Nullable, Time } from "./common.js";
import { GateVerdictOutSchema } from "./gate.js";

// The built-in RAG bot: collections, ingest, ask.

export const CreateCollectionSchema = z.object({
  name: z.string().trim().min(1).max(200),
  config: CollectionConfigSchema.optional(),
});

export const AskRequestSchema = z.object({
  collection_id: z.string().trim().min(1).max(256),
  question: z.string().trim().min(1).max(10_000),
  sources: z.array(RetrievalSourceSchema).min(1).optional(),
  conversation_id: z.string().trim().min(1).max(256).optional(),
  message_id: z.string().trim().min(1).max(256).optional(),
});

export const CollectionSchema = responseSchema(
  "Collection",
  z.object({
    id: Id,
    name: z.string(),
    config: z.record(z.string(), z.unknown()),
    version: z.number().int(),
    observation_count: z.number().int(),
    created_at: Time,
    deleted_at: Nullable(Time),
  }),
);

export const CollectionSummarySchema = responseSchema(
  "CollectionSummary",
  CollectionSchema.extend({
    document_count: z.number().int(),
    chunk_count: z.number().int(),
  }),
);

export const CollectionListSchema = responseSchema(
  "CollectionList",
  z.object({ items: z.array(CollectionSummarySchema) }),
);

export const IngestResultSchema = responseSchema(
  "IngestResult",
  z.object({
    collection_id: z.string(),
    collection_created: z.boolean(),
    documents: z.object({ added: z.number(), unchanged: z.number(), replaced: z.number() }),
    chunks: z.object({ added: z.number(), removed: z.number(), embedded: z.number() }),
    problems: z.array(z.looseObject({ message: z.string().optional() })),
  }),
);

const RetrievedHitSchema = z.looseObject({
  node_id: z.string(),
  content: z.string(),
  score: z.number(),
  source: z.string(),
  sources: z.array(z.string()),
  scores: z.record(z.string(), z.number()),
  document_id: z.string(),
  title: z.string().optional(),
  position: z.number(),
  metadata: z.record(z.string(), z.unknown()),
});

const TraceStepSchema = z.looseObject({
  machine: z.string(),
  node: z.string(),
  started_ms: z.number(),
  duration_ms: z.number(),
  summary: z.string().describe("what changed, for developers"),
  summary_message: CodedMessageSchema.optional().describe(
    "what the step did in plain words, as a code; absent in traces stored before it existed",
  ),
  next: z.string(),
  router: z.string().optional(),
});

/** `POST /ask`: the built-in bot's whole state (rag/loops/ask.ts AskResult) and its diagrams. */
export const AskResponseSchema = responseSchema(
  "AskResponse",
  z.object({
    question: z.string(),
    collection_id: z.string(),
    conversation_id: z.string(),
    message_id: z.string(),
    hits: z.array(RetrievedHitSchema),
    quality: z
      .record(z.string(), z.unknown())
      .describe("the quality loop's state (retrieval graded and rewritten)"),
    quality_exit: z.enum(["quality", "retry_limit", "timeout"]),
    answer: z
      .record(z.string(), z.unknown())
      .describe("the answer loop's state (answer reviewed and regenerated)"),
    answer_exit: z.enum(["passed", "epoch_limit", "timeout"]),
    final_answer: z.string(),
    citations: z.array(z.string()),
    gate: GateVerdictOutSchema,
    action: GateActionSchema,
    response: z.object({
      action: GateActionSchema,
      answer: z.string().nullable(),
      notice: z.string().nullable(),
    }),
    observations: z.record(z.string(), z.unknown()).nullable(),
    warnings: z.array(z.string()),
    trace: z.array(TraceStepSchema),
    duration_ms: z.number(),
    diagrams: z.object({ quality_loop: z.string(), answer_loop: z.string() }),
  }),
);
