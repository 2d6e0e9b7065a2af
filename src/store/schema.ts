import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { CodedMessage } from "../text/index.js";

// The one schema of ragjudge; migrations in drizzle/ are generated from it (`npm run db:generate`).
// Row types are inferred from it (`$inferSelect`, `$inferInsert`), never written by hand.

/**
 * A jsonb object. Most stored objects (a gate verdict, a judge's output, a run's snapshot) are
 * shaped by a layer above the store, which parses or narrows them when it reads; the store keeps
 * them whole and knows only that they are objects, lists, or lists of strings.
 */
export type JsonObject = object;

export const users = pgTable("users", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull().unique(),
  created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A workspace (issue 28): every row of work belongs to one, and people share it by their role. Each
 * user has a personal workspace whose id is the user's own id, so the rows every user had before
 * workspaces existed were already in it when the migration made it.
 */
export const workspaces = pgTable("workspaces", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  /** The user's own workspace, made with the account; it cannot be left or deleted. */
  personal: boolean("personal").notNull().default(false),
  created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const WORKSPACE_ROLES = ["owner", "editor", "annotator", "viewer"] as const;

/** Who may work in a workspace, and as what. */
export const workspace_members = pgTable(
  "workspace_members",
  {
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: WORKSPACE_ROLES }).notNull(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspace_id, t.user_id] }),
    index("workspace_members_user_idx").on(t.user_id),
  ],
);

/** One-time invitation links, like login codes: the code is stored hashed, expires, works once. */
export const workspace_invitations = pgTable(
  "workspace_invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    code_hash: text("code_hash").notNull().unique(),
    role: text("role", { enum: WORKSPACE_ROLES }).notNull(),
    invited_by: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    used_at: timestamp("used_at", { withTimezone: true }),
    used_by: uuid("used_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [index("workspace_invitations_workspace_idx").on(t.workspace_id, t.created_at)],
);

/** Who did what to which thing in a workspace: started, paused, deleted, relabelled (issue 28). */
export const audit_events = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    user_id: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    /** What was done, e.g. `evaluation.start`, `label.change`. */
    action: text("action").notNull(),
    /** The kind of thing it was done to (`evaluation`, `question_set`, ...) and its id. */
    subject_type: text("subject_type").notNull(),
    subject_id: text("subject_id").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("audit_events_subject_idx").on(t.workspace_id, t.subject_type, t.subject_id),
    index("audit_events_created_idx").on(t.workspace_id, t.created_at),
  ],
);

/** API tokens are stored as sha256 hashes; the plaintext is shown once, at creation. */
export const api_tokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    token_hash: text("token_hash").notNull().unique(),
    label: text("label").notNull().default(""),
    /**
     * `full`: everything the user may do; `ingest`: a write-only ingest key, which can send
     * production answers and read nothing (issue 24).
     */
    scope: text("scope", { enum: ["full", "ingest"] })
      .notNull()
      .default("full"),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revoked_at: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    index("api_tokens_user_idx").on(t.user_id),
    index("api_tokens_workspace_idx").on(t.workspace_id),
  ],
);

/**
 * Browser sessions (the web app): the cookie's value is stored as a sha256 hash, like API tokens,
 * and expires.
 */
export const web_sessions = pgTable(
  "web_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    token_hash: text("token_hash").notNull().unique(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("web_sessions_user_idx").on(t.user_id)],
);

/** One-time login codes `ragjudge serve` prints in its login URL: hashed, short-lived, used once. */
export const login_codes = pgTable("login_codes", {
  code_hash: text("code_hash").primaryKey(),
  user_id: uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/**
 * Seed 004 section 2.1 EvaluationRecordModel: one gate verdict, stored whole for audit and replay.
 * `input` keeps the evidence and answer so a record can be re-evaluated later.
 */
export const evaluation_records = pgTable(
  "evaluation_records",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    conversation_id: text("conversation_id").notNull(),
    message_id: text("message_id").notNull(),
    retrieval_record_id: text("retrieval_record_id").notNull(),
    generation_record_id: text("generation_record_id").notNull(),
    status: text("status", { enum: ["pass", "partial", "fail", "skipped"] }).notNull(),
    action: text("action", { enum: ["show", "show_with_warning", "refuse"] }).notNull(),
    rule_version: text("rule_version").notNull(),
    config: jsonb("config").$type<JsonObject>().notNull(),
    checks: jsonb("checks").$type<unknown[]>().notNull(),
    scores: jsonb("scores").$type<JsonObject>().notNull(),
    meta: jsonb("meta").$type<JsonObject>().notNull(),
    input: jsonb("input").$type<JsonObject>().notNull(),
    check_count: integer("check_count").notNull(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("evaluation_records_workspace_created_idx").on(t.workspace_id, t.created_at),
    index("evaluation_records_message_idx").on(t.workspace_id, t.conversation_id, t.message_id),
    index("evaluation_records_status_idx")
      .on(t.workspace_id, t.status)
      .where(sql`${t.status} <> 'pass'`),
  ],
);

/**
 * Cached LLM responses keyed by a hash of (model, messages, parameters), so re-running the same
 * evaluation makes no calls. Per user: one user's prompts never answer another's.
 */
export const llm_cache = pgTable(
  "llm_cache",
  {
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    model: text("model").notNull(),
    response: jsonb("response").notNull(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspace_id, t.key] })],
);

/**
 * A user's named set of documents to retrieve from. `version` is bumped by every change to its
 * chunks (ingest, embedding backfill) and `observation_count` by every appended observation: the
 * in-memory retrieval indexes compare them per query instead of scanning tables.
 */
export const collections = pgTable(
  "collections",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Chunking settings, fixed at creation (see rag/ingest/config.ts). */
    config: jsonb("config").$type<JsonObject>().notNull().default({}),
    version: integer("version").notNull().default(0),
    observation_count: integer("observation_count").notNull().default(0),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deleted_at: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    // A deleted collection's name may be used again.
    uniqueIndex("collections_workspace_name_idx")
      .on(t.workspace_id, t.name)
      .where(sql`${t.deleted_at} is null`),
  ],
);

/**
 * One ingested document. The id is derived from (collection, content_hash), so re-ingesting the
 * same content finds the same document and its chunks keep their ids.
 */
export const documents = pgTable(
  "documents",
  {
    id: text("id").primaryKey(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    collection_id: uuid("collection_id")
      .notNull()
      .references(() => collections.id, { onDelete: "cascade" }),
    /** The file path (relative to the working directory when under it) or `file.jsonl#id`. */
    source: text("source").notNull(),
    /**
     * The user's own id of the document, which a question's `relevant_ids` name: a JSONL line's
     * `id`, else `source`. Null on documents ingested before it was kept (read as `source`).
     */
    external_id: text("external_id"),
    title: text("title").notNull().default(""),
    kind: text("kind", { enum: ["markdown", "text", "html", "pdf", "jsonl"] }).notNull(),
    /** sha256 of the extracted title, text and metadata. */
    content_hash: text("content_hash").notNull(),
    metadata: jsonb("metadata").$type<JsonObject>().notNull().default({}),
    char_count: integer("char_count").notNull(),
    chunk_count: integer("chunk_count").notNull(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("documents_collection_hash_idx").on(t.collection_id, t.content_hash),
    index("documents_collection_source_idx").on(t.collection_id, t.source),
  ],
);

/** A retrievable span of a document; `id` is `${document_id}#${position}`. */
export const chunks = pgTable(
  "chunks",
  {
    id: text("id").primaryKey(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    collection_id: uuid("collection_id")
      .notNull()
      .references(() => collections.id, { onDelete: "cascade" }),
    document_id: text("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    content: text("content").notNull(),
    /** Retrieval tokens joined by single spaces (tokens never contain one), for BM25. */
    tokens: text("tokens").notNull(),
    embedding: real("embedding").array(),
    /** The model that produced `embedding`: vectors of different models are never compared. */
    embedding_model: text("embedding_model"),
    metadata: jsonb("metadata").$type<JsonObject>().notNull().default({}),
  },
  (t) => [
    index("chunks_collection_idx").on(t.collection_id, t.id),
    index("chunks_document_idx").on(t.document_id, t.position),
  ],
);

/**
 * Observational data (the `memory` source): answers that passed before, one row per cited chunk.
 * Written by the RAG loops through appendObservations.
 */
export const observational_data = pgTable(
  "observational_data",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    collection_id: uuid("collection_id")
      .notNull()
      .references(() => collections.id, { onDelete: "cascade" }),
    query: text("query").notNull(),
    answer: text("answer").notNull(),
    node_id: text("node_id").notNull(),
    score: doublePrecision("score").notNull(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("observational_data_collection_idx").on(t.collection_id, t.id)],
);

// Evaluation runs (seed 003 section 2). Column names are the seed's (gmt_*, question_text,
// rag_answer, llm_judge_score...); workspace_id on every row scopes it (user_id says who made it), gmt_deleted soft-deletes.

/** Seed 003 question_sets. */
export const question_sets = pgTable(
  "question_sets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Who made it (seed 003's user_id); the workspace it belongs to scopes it. */
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    collection_id: uuid("collection_id"),
    name: text("name").notNull(),
    description: text("description"),
    question_count: integer("question_count").notNull().default(0),
    gmt_created: timestamp("gmt_created", { withTimezone: true }).notNull().defaultNow(),
    gmt_updated: timestamp("gmt_updated", { withTimezone: true }).notNull().defaultNow(),
    gmt_deleted: timestamp("gmt_deleted", { withTimezone: true }),
  },
  (t) => [
    index("idx_question_sets_user_id").on(t.user_id, t.gmt_created),
    index("idx_question_sets_workspace_id").on(t.workspace_id, t.gmt_created),
    index("idx_question_sets_collection_id").on(t.collection_id),
  ],
);

/** Seed 003 questions; `question_key` is the normalized text duplicates are found by. */
export const questions = pgTable(
  "questions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    question_set_id: uuid("question_set_id")
      .notNull()
      .references(() => question_sets.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    question_type: text("question_type", {
      enum: ["FACTUAL", "INFERENTIAL", "USER_DEFINED"],
    }).notNull(),
    question_text: text("question_text").notNull(),
    ground_truth: text("ground_truth").notNull().default(""),
    /**
     * Every acceptable reference when there are several (`ground_truth` is then the first); null
     * when `ground_truth` is the only one (or there is none).
     */
    ground_truths: jsonb("ground_truths").$type<string[]>(),
    reference_context: text("reference_context"),
    /** Ids of the documents or chunks that answer the question (issue 26 §4); null for none. */
    relevant_ids: jsonb("relevant_ids").$type<string[]>(),
    /** Texts of the passages that answer it, matched to retrieved chunks; null for none. */
    reference_contexts: jsonb("reference_contexts").$type<string[]>(),
    question_key: text("question_key").notNull(),
    gmt_created: timestamp("gmt_created", { withTimezone: true }).notNull().defaultNow(),
    gmt_updated: timestamp("gmt_updated", { withTimezone: true }).notNull().defaultNow(),
    gmt_deleted: timestamp("gmt_deleted", { withTimezone: true }),
  },
  (t) => [
    index("idx_questions_question_set_id").on(t.question_set_id, t.position),
    uniqueIndex("questions_set_key_idx")
      .on(t.question_set_id, t.question_key)
      .where(sql`${t.gmt_deleted} is null`),
  ],
);

/** Why a question set got a new version (issue 28 §3). */
/** What a bot's failure was, as a result stores it: a BotError's kind, or `error` for any other. */
export const RESULT_ERROR_KINDS = [
  "unreachable",
  "timeout",
  "http_status",
  "invalid_response",
  "model",
  "database",
  "error",
] as const;

export const QUESTION_SET_CHANGES = [
  "created",
  "imported",
  "generated",
  "appended",
  "edited",
  "deleted",
  "restored",
] as const;

/** A question as one version of its set holds it: the question row's id and its content. */
export interface VersionQuestion {
  id: string;
  question_type: "FACTUAL" | "INFERENTIAL" | "USER_DEFINED";
  question_text: string;
  ground_truth: string;
  ground_truths: string[] | null;
  reference_context: string | null;
  relevant_ids: string[] | null;
  reference_contexts: string[] | null;
}

/**
 * Every change to a set's questions (import, edit, generation, append, deletion, restore) writes
 * the set's whole question list as a new version, numbered 1, 2, 3… per set, in the transaction of
 * the change. A snapshot, not a mapping: a diff or an export reads one row, and a later edit of
 * a question row can never change an old version.
 */
export const question_set_versions = pgTable(
  "question_set_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    question_set_id: uuid("question_set_id")
      .notNull()
      .references(() => question_sets.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    /** Who made the change; null once that user is gone. */
    created_by: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    change: text("change", { enum: QUESTION_SET_CHANGES }).notNull(),
    /** The version a `restored` one copies. */
    restored_from: integer("restored_from"),
    question_count: integer("question_count").notNull(),
    /** The questions in their order. */
    questions: jsonb("questions").$type<VersionQuestion[]>().notNull(),
  },
  (t) => [uniqueIndex("question_set_versions_number_idx").on(t.question_set_id, t.number)],
);

/**
 * Seed 003 evaluations. `config` snapshots the whole run configuration (bot, judges, models, prompt
 * versions; never an API key). Counters move only when a result row changes to a final status.
 */
export const evaluations = pgTable(
  "evaluations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Who made it (seed 003's user_id); the workspace it belongs to scopes it. */
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    collection_id: uuid("collection_id"),
    question_set_id: uuid("question_set_id"),
    /** The version of the set the run copied its questions from (null: a run made before versions). */
    question_set_version_id: uuid("question_set_version_id"),
    question_set_version: integer("question_set_version"),
    /** "builtin" or the external bot's URL (credentials removed). */
    bot_id: text("bot_id").notNull(),
    /** The judge model, or "offline". */
    judge_llm_model_id: text("judge_llm_model_id").notNull(),
    config: jsonb("config").$type<JsonObject>().notNull(),
    status: text("status", {
      enum: ["PENDING", "RUNNING", "PAUSED", "COMPLETED", "FAILED", "CANCELLED"],
    })
      .notNull()
      .default("PENDING"),
    /** Why the run FAILED (e.g. the bot is unreachable). */
    status_reason: text("status_reason"),
    progress: integer("progress").notNull().default(0),
    total_questions: integer("total_questions").notNull().default(0),
    completed_questions: integer("completed_questions").notNull().default(0),
    scored_questions: integer("scored_questions").notNull().default(0),
    bot_error_count: integer("bot_error_count").notNull().default(0),
    judge_error_count: integer("judge_error_count").notNull().default(0),
    /** Mean primary score (0-1) over SCORED results only. */
    average_score: doublePrecision("average_score"),
    /**
     * A run with a cost limit (eval --max-cost) keeps its budget here (store/evaluation-budget.ts):
     * USD its finished items cost (retried ones included), USD reserved by items in flight, and
     * the dearest finished item. Runs without a limit leave them at 0 and null.
     */
    cost_spent_usd: doublePrecision("cost_spent_usd").notNull().default(0),
    cost_reserved_usd: doublePrecision("cost_reserved_usd").notNull().default(0),
    cost_item_max_usd: doublePrecision("cost_item_max_usd"),
    started_at: timestamp("started_at", { withTimezone: true }),
    finished_at: timestamp("finished_at", { withTimezone: true }),
    gmt_created: timestamp("gmt_created", { withTimezone: true }).notNull().defaultNow(),
    gmt_updated: timestamp("gmt_updated", { withTimezone: true }).notNull().defaultNow(),
    gmt_deleted: timestamp("gmt_deleted", { withTimezone: true }),
  },
  (t) => [
    index("idx_evaluations_user_id").on(t.user_id, t.gmt_created),
    index("idx_evaluations_workspace_id").on(t.workspace_id, t.gmt_created),
    index("idx_evaluations_status").on(t.status),
  ],
);

/**
 * Seed 003 evaluation_results: one row per (evaluation, question), created PENDING at start with a
 * copy of the question, so later edits to the set never change an old run.
 */
export const evaluation_results = pgTable(
  "evaluation_results",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    evaluation_id: uuid("evaluation_id")
      .notNull()
      .references(() => evaluations.id, { onDelete: "cascade" }),
    question_id: text("question_id").notNull(),
    position: integer("position").notNull(),
    question_type: text("question_type").notNull(),
    question_text: text("question_text").notNull(),
    ground_truth: text("ground_truth").notNull(),
    /** The question's references when it has several (see questions.ground_truths). */
    ground_truths: jsonb("ground_truths").$type<string[]>(),
    reference_context: text("reference_context"),
    /** The question's relevant ids and reference texts (see questions.relevant_ids). */
    relevant_ids: jsonb("relevant_ids").$type<string[]>(),
    reference_contexts: jsonb("reference_contexts").$type<string[]>(),
    /**
     * A precomputed answer ({answer, contexts, citations}) for a run of bot kind `answers`: the run
     * judges it instead of asking a bot. Kept across retries (it is input, not output).
     */
    supplied_answer: jsonb("supplied_answer").$type<JsonObject>(),
    status: text("status", {
      enum: ["PENDING", "RUNNING", "SCORED", "BOT_ERROR", "JUDGE_ERROR"],
    })
      .notNull()
      .default("PENDING"),
    attempts: integer("attempts").notNull().default(0),
    /** The job that holds a RUNNING row: only it may write the result (see store/evaluations.ts). */
    job_id: text("job_id"),
    latency_ms: doublePrecision("latency_ms"),
    usage: jsonb("usage").$type<JsonObject>(),
    rag_answer: text("rag_answer"),
    rag_answer_sources: jsonb("rag_answer_sources").$type<unknown[]>(),
    /** The node ids the answer cites. */
    rag_citations: jsonb("rag_citations").$type<string[]>(),
    rag_tool_calls: jsonb("rag_tool_calls").$type<unknown[]>(),
    gate_status: text("gate_status"),
    gate: jsonb("gate").$type<JsonObject>(),
    /** Every configured judge's output, by judge name. */
    judges: jsonb("judges").$type<JsonObject>(),
    /**
     * Hit rate, recall, precision, MRR and nDCG of the retrieved contexts against the question's
     * relevant ids or reference texts (judges/retrieval), when it has some.
     */
    retrieval: jsonb("retrieval").$type<JsonObject>(),
    /** The reference judge's 1-5 score and reasoning (seed 003 section 5.1), when it ran. */
    llm_judge_score: integer("llm_judge_score"),
    llm_judge_reasoning: text("llm_judge_reasoning"),
    /** The primary score on [0, 1] and whether the item passed every judge and the gate. */
    score: doublePrecision("score"),
    passed: boolean("passed"),
    error: text("error"),
    /**
     * A BOT_ERROR's kind (RESULT_ERROR_KINDS; evals/bots' BotError kinds, or `error` when the bot
     * threw something else), so a reader is told what went wrong in their language; `error`
     * keeps the detail. Null otherwise.
     */
    error_kind: text("error_kind", { enum: RESULT_ERROR_KINDS }),
    gmt_created: timestamp("gmt_created", { withTimezone: true }).notNull().defaultNow(),
    gmt_updated: timestamp("gmt_updated", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("evaluation_results_question_idx").on(t.evaluation_id, t.question_id),
    // Question order, then the columns the results list filters on: once a run's pages are
    // all-visible (vacuumed), a filtered count and page read this index only, not the wide rows.
    index("idx_evaluation_results_evaluation_id").on(
      t.evaluation_id,
      t.position,
      t.workspace_id,
      t.status,
      t.passed,
      t.gate_status,
      t.question_type,
      t.score,
    ),
  ],
);

/** A question generation job (seed 003 POST /question-sets/generate): previewed, then saved. */
export const question_generations = pgTable(
  "question_generations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    collection_id: uuid("collection_id").notNull(),
    config: jsonb("config").$type<JsonObject>().notNull(),
    status: text("status", { enum: ["PENDING", "RUNNING", "COMPLETED", "FAILED"] })
      .notNull()
      .default("PENDING"),
    progress: integer("progress").notNull().default(0),
    questions: jsonb("questions").$type<unknown[]>(),
    heuristic: boolean("heuristic"),
    /** Coded messages (text/user-messages.ts); plain strings in rows from before codes. */
    warnings: jsonb("warnings").$type<Array<CodedMessage | string>>(),
    /** The generator LLM's calls, tokens and latency (llm/usage.ts); null without an LLM. */
    usage: jsonb("usage").$type<JsonObject>(),
    /** Why it FAILED, in English; `error_message` holds the same as a code the web app words. */
    error: text("error"),
    error_message: jsonb("error_message").$type<CodedMessage>(),
    gmt_created: timestamp("gmt_created", { withTimezone: true }).notNull().defaultNow(),
    gmt_updated: timestamp("gmt_updated", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("question_generations_workspace_idx").on(t.workspace_id, t.gmt_created)],
);

/**
 * An HTTP bot a user registered, with the credential ragjudge sends to that bot's URL and nowhere
 * else (issue 12). `secret` is read by evaluation workers only: no API response, run snapshot or
 * log carries it. With the operator's RAGJUDGE_SECRET_KEY it is stored encrypted (secret-box.ts:
 * `rjsec1.…`, bound to its owner and bot); without one, only a single-user database keeps it as
 * given (issue 22 §15).
 */
export const bots = pgTable(
  "bots",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    url: text("url").notNull(),
    /** The header the secret goes in; `authorization` sends `Bearer <secret>`. */
    secret_header: text("secret_header").notNull().default("authorization"),
    secret: text("secret"),
    gmt_created: timestamp("gmt_created", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("bots_workspace_name_idx").on(t.workspace_id, t.name)],
);

/**
 * Seed 002 section 3.2's Auto-Arena: contestants compared on one question set. `config` snapshots
 * the request (contestants, judge, tolerance, rounds, seed; never a key); `results` holds the
 * ratings, matrix and charts' data once computed. Each contestant is an evaluation run (reused or
 * started by the arena), listed in `config`.
 */
export const arenas = pgTable(
  "arenas",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    question_set_id: uuid("question_set_id").notNull(),
    /** The version of the set its contestants ran on (null: an arena made before versions). */
    question_set_version_id: uuid("question_set_version_id"),
    question_set_version: integer("question_set_version"),
    status: text("status", { enum: ["PENDING", "RUNNING", "COMPLETED", "FAILED"] })
      .notNull()
      .default("PENDING"),
    /** Why it FAILED, in English; `status_message` holds the same as a code the web app words. */
    status_reason: text("status_reason"),
    status_message: jsonb("status_message").$type<CodedMessage>(),
    config: jsonb("config").$type<JsonObject>().notNull(),
    results: jsonb("results").$type<JsonObject>(),
    gmt_created: timestamp("gmt_created", { withTimezone: true }).notNull().defaultNow(),
    gmt_updated: timestamp("gmt_updated", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("idx_arenas_workspace_id").on(t.workspace_id, t.gmt_created)],
);

/**
 * A person's score of one evaluation result (seed 002 section 5.3, the manual golden set), on a
 * judge's own scale: "1-10" (rubric, offline), "1-5" (reference) or "pass_fail". One label per
 * result and scale; re-labelling replaces it. Retrying a run updates its result rows in place,
 * so labels survive re-judging.
 */
export const human_labels = pgTable(
  "human_labels",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    evaluation_id: uuid("evaluation_id")
      .notNull()
      .references(() => evaluations.id, { onDelete: "cascade" }),
    evaluation_result_id: uuid("evaluation_result_id")
      .notNull()
      .references(() => evaluation_results.id, { onDelete: "cascade" }),
    scale: text("scale", { enum: ["1-10", "1-5", "pass_fail"] }).notNull(),
    /** The score on the scale (1-10 or 1-5); null on pass_fail. */
    score: integer("score"),
    /** The verdict on pass_fail; null on a score scale. */
    passed: boolean("passed"),
    note: text("note"),
    /** Who labelled it: a person's name, or the account's. */
    labelled_by: text("labelled_by").notNull(),
    labelled_at: timestamp("labelled_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("human_labels_result_scale_idx").on(t.evaluation_result_id, t.scale),
    index("human_labels_evaluation_idx").on(t.evaluation_id, t.scale),
  ],
);

/**
 * One answer a production RAG system gave its user (issue 24), as seed 004's EvaluatorInput plus
 * what a trace or client adds (session, service, latency, tokens, metadata), with the gate's
 * verdict: every answer is gated as it arrives. Partitioned by the UTC day it was received
 * (declarative partitioning, written by hand into the migration: drizzle-kit cannot express it),
 * so retention drops whole days; partitions are created as answers arrive
 * (answer-records.ts).
 */
export const answer_records = pgTable(
  "answer_records",
  {
    id: uuid("id").notNull().defaultRandom(),
    received_at: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** Which door it came in by. */
    source: text("source", { enum: ["api", "client", "otlp", "guard"] }).notNull(),
    conversation_id: text("conversation_id").notNull(),
    message_id: text("message_id").notNull(),
    session_id: text("session_id"),
    trace_id: text("trace_id"),
    service: text("service"),
    collection: text("collection"),
    model: text("model"),
    query: text("query"),
    answer: text("answer").notNull(),
    /** The retrieval hits, the citations and the rest of the input, for replay. */
    input: jsonb("input").$type<JsonObject>().notNull(),
    latency_ms: integer("latency_ms"),
    prompt_tokens: integer("prompt_tokens"),
    completion_tokens: integer("completion_tokens"),
    metadata: jsonb("metadata").$type<JsonObject>().notNull(),
    gate_status: text("gate_status", { enum: ["pass", "partial", "fail", "skipped"] }).notNull(),
    gate_action: text("gate_action", { enum: ["show", "show_with_warning", "refuse"] }).notNull(),
    rule_version: text("rule_version").notNull(),
    checks: jsonb("checks").$type<unknown[]>().notNull(),
    scores: jsonb("scores").$type<JsonObject>().notNull(),
    /**
     * A trace's spans in short (name, kind, parent, start offset, duration), for the answer's span
     * tree; only answers that came in as OpenTelemetry traces have them.
     */
    spans: jsonb("spans").$type<unknown[]>(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.received_at] }),
    index("answer_records_workspace_received_idx").on(t.workspace_id, t.received_at),
  ],
);

/**
 * One row per answer ever accepted, keyed by the caller's (conversation_id, message_id): a retried
 * batch or a re-sent trace stores each answer once. Not partitioned, so the key holds across days;
 * retention deletes the keys of the days it drops.
 */
export const answer_keys = pgTable(
  "answer_keys",
  {
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    conversation_id: text("conversation_id").notNull(),
    message_id: text("message_id").notNull(),
    answer_id: uuid("answer_id").notNull(),
    received_at: timestamp("received_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspace_id, t.conversation_id, t.message_id] }),
    index("answer_keys_received_idx").on(t.received_at),
  ],
);

/**
 * What people said about a production answer (issue 24 §2): a thumbs up or down, a score from 0
 * to 1, a comment, any of them. Several per answer, kept in order. `answer_received_at` names the
 * answer's day partition (answer_records has no single-column key to reference), so retention
 * drops an answer's feedback with it.
 */
export const answer_feedback = pgTable(
  "answer_feedback",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    answer_id: uuid("answer_id").notNull(),
    answer_received_at: timestamp("answer_received_at", { withTimezone: true }).notNull(),
    thumb: text("thumb", { enum: ["up", "down"] }),
    score: doublePrecision("score"),
    comment: text("comment"),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("answer_feedback_answer_idx").on(t.workspace_id, t.answer_id),
    index("answer_feedback_received_idx").on(t.answer_received_at),
    // Alerts read the feedback given in a window (production/alerts).
    index("answer_feedback_workspace_created_idx").on(t.workspace_id, t.created_at),
  ],
);

/**
 * A trace that arrived over OTLP but could not become an answer record (no retrieval span, no
 * answer): kept with the reason in words, shown over the API and counted, never dropped in
 * silence (issue 24 §1.1). One row per trace, however often it is sent.
 */
export const rejected_traces = pgTable(
  "rejected_traces",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    trace_id: text("trace_id").notNull(),
    service: text("service"),
    reason: text("reason").notNull(),
    span_count: integer("span_count").notNull(),
    received_at: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("rejected_traces_workspace_trace_idx").on(t.workspace_id, t.trace_id),
    index("rejected_traces_workspace_received_idx").on(t.workspace_id, t.received_at),
  ],
);

/** What an alert rule watches (production/alerts/metrics.ts says how each is measured). */
export const ALERT_METRICS = [
  "gate_pass_rate",
  "thumbs_down_share",
  "latency_p95_ms",
  "judge_mean",
] as const;

/**
 * A user's alert rule (issue 24 §4): a metric over a window of production answers, compared with
 * a threshold once at least `min_count` answers (or thumbs) are in the window; a webhook is told
 * when it fires and when it resolves. The webhook's signing secret is sealed like bots' secrets.
 */
export const alert_rules = pgTable(
  "alert_rules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    metric: text("metric", { enum: ALERT_METRICS }).notNull(),
    /** The judge whose mean score `judge_mean` watches (a monitor's judge); null for the others. */
    judge: text("judge"),
    comparison: text("comparison", { enum: ["below", "above"] }).notNull(),
    threshold: doublePrecision("threshold").notNull(),
    window_minutes: integer("window_minutes").notNull(),
    min_count: integer("min_count").notNull(),
    /** Only answers of this service, collection or model (each optional). */
    filter: jsonb("filter")
      .$type<{ service?: string; collection?: string; model?: string }>()
      .notNull(),
    webhook_url: text("webhook_url").notNull(),
    /** The HMAC key for the webhook's signature: sealed (secret-box.ts), never read back out. */
    secret: text("secret").notNull(),
    cooldown_minutes: integer("cooldown_minutes").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the evaluator last measured it, and what it found. */
    evaluated_at: timestamp("evaluated_at", { withTimezone: true }),
    last_value: doublePrecision("last_value"),
    last_count: integer("last_count"),
  },
  (t) => [
    uniqueIndex("alert_rules_workspace_name_idx").on(t.workspace_id, t.name),
    index("alert_rules_enabled_idx").on(t.enabled),
  ],
);

/** How one webhook delivery went: tries made and the last outcome. */
export interface AlertDelivery {
  attempts: number;
  outcome: "delivered" | "failed" | "refused" | "pending";
  /** The receiver's last HTTP status, when it answered. */
  status: number | null;
  /** Why it failed, in words (never the secret or the body). */
  detail: string | null;
  at: string;
}

/**
 * One firing episode of a rule: opened when it fires, closed when it resolves. At most one open
 * episode per rule (the partial unique index), so two evaluators cannot both notify one episode.
 */
export const alert_events = pgTable(
  "alert_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    rule_id: uuid("rule_id")
      .notNull()
      .references(() => alert_rules.id, { onDelete: "cascade" }),
    fired_at: timestamp("fired_at", { withTimezone: true }).notNull(),
    value: doublePrecision("value").notNull(),
    count: integer("count").notNull(),
    resolved_at: timestamp("resolved_at", { withTimezone: true }),
    resolved_value: doublePrecision("resolved_value"),
    resolved_count: integer("resolved_count"),
    fired_delivery: jsonb("fired_delivery").$type<AlertDelivery>(),
    resolved_delivery: jsonb("resolved_delivery").$type<AlertDelivery>(),
  },
  (t) => [
    uniqueIndex("alert_events_open_idx")
      .on(t.rule_id)
      .where(sql`${t.resolved_at} is null`),
    index("alert_events_rule_fired_idx").on(t.rule_id, t.fired_at),
  ],
);

/**
 * OpenTelemetry spans whose trace is not complete yet (issue 24 §1.1): an export's 2xx means its
 * spans are stored, so a restart resumes the traces still waiting. A trace's rows go once it is
 * stored as an answer or as a rejected trace. The span is kept as decoded (production/otlp).
 */
export const pending_spans = pgTable(
  "pending_spans",
  {
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    trace_id: text("trace_id").notNull(),
    span_id: text("span_id").notNull(),
    span: jsonb("span").$type<JsonObject>().notNull(),
    received_at: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspace_id, t.trace_id, t.span_id] })],
);

/**
 * A monitor (issue 24 §2): which production answers to judge after the gate (a filter and a
 * sample rate), with which judges, under a budget of LLM calls per minute and per day.
 */
export const monitors = pgTable(
  "monitors",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    /** Which answers: collection, model, service, metadata, gate verdicts, feedback. */
    filter: jsonb("filter").$type<JsonObject>().notNull(),
    /** The share of matching answers judged, 0 to 1. */
    sample_rate: doublePrecision("sample_rate").notNull(),
    judges: jsonb("judges").$type<string[]>().notNull(),
    max_calls_per_minute: integer("max_calls_per_minute").notNull(),
    max_calls_per_day: integer("max_calls_per_day").notNull(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("monitors_workspace_idx").on(t.workspace_id)],
);

/**
 * One answer a monitor took up: judged (queued, running, done, failed) or skipped because its
 * budget was spent when the answer arrived. Unique per (monitor, answer), so no answer is judged
 * twice by one monitor; `job_id` is the claim of the job judging it.
 */
export const monitor_judgments = pgTable(
  "monitor_judgments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    monitor_id: uuid("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    answer_id: uuid("answer_id").notNull(),
    answer_received_at: timestamp("answer_received_at", { withTimezone: true }).notNull(),
    status: text("status", {
      enum: ["queued", "running", "done", "failed", "skipped"],
    }).notNull(),
    /** Why a skipped answer was not judged, in words. */
    skip_reason: text("skip_reason"),
    /** LLM calls reserved from the budget for it. */
    llm_calls: integer("llm_calls").notNull(),
    job_id: text("job_id"),
    /** Each judge's outcome: score, verdict, reasoning, or its error. */
    results: jsonb("results").$type<JsonObject>(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    judged_at: timestamp("judged_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("monitor_judgments_monitor_answer_idx").on(t.monitor_id, t.answer_id),
    index("monitor_judgments_answer_idx").on(t.workspace_id, t.answer_id),
    index("monitor_judgments_status_idx").on(t.status, t.created_at),
    index("monitor_judgments_received_idx").on(t.answer_received_at),
  ],
);

/**
 * A monitor's counts per minute of arrival: answers that matched, were sampled out, queued,
 * skipped for budget, and the LLM calls reserved. The budget reads these.
 */
export const monitor_minutes = pgTable(
  "monitor_minutes",
  {
    monitor_id: uuid("monitor_id")
      .notNull()
      .references(() => monitors.id, { onDelete: "cascade" }),
    minute: timestamp("minute", { withTimezone: true }).notNull(),
    matched: integer("matched").notNull().default(0),
    sampled_out: integer("sampled_out").notNull().default(0),
    queued: integer("queued").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    llm_calls: integer("llm_calls").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.monitor_id, t.minute] })],
);

/**
 * Production answers summed per minute and per hour of arrival (issue 24 §3), kept as answers,
 * feedback and judgments arrive, so the monitor's charts read buckets, not rows (a week of hours
 * is 168 buckets where it would be 10,080 minutes). Not partitioned: retention
 * leaves them. `meta_key` '' is the row of all answers; a breakdown key's rows repeat the counts per
 * value. Empty strings stand for a missing service, collection or model.
 */
export const answer_rollups = pgTable(
  "answer_rollups",
  {
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** The bucket's width in seconds: 60 (a minute) or 3600 (an hour, for reads of hours and days). */
    grain: integer("grain").notNull(),
    minute: timestamp("minute", { withTimezone: true }).notNull(),
    service: text("service").notNull(),
    collection: text("collection").notNull(),
    model: text("model").notNull(),
    meta_key: text("meta_key").notNull(),
    meta_value: text("meta_value").notNull(),
    count: integer("count").notNull().default(0),
    gate_pass: integer("gate_pass").notNull().default(0),
    gate_partial: integer("gate_partial").notNull().default(0),
    gate_fail: integer("gate_fail").notNull().default(0),
    latency_count: integer("latency_count").notNull().default(0),
    latency_sum: doublePrecision("latency_sum").notNull().default(0),
    /** Answers per latency bucket (answer-rollups.ts LATENCY_BOUNDS_MS, and one past the last). */
    latency_buckets: integer("latency_buckets").array().notNull(),
    prompt_tokens: doublePrecision("prompt_tokens").notNull().default(0),
    completion_tokens: doublePrecision("completion_tokens").notNull().default(0),
    feedback_up: integer("feedback_up").notNull().default(0),
    feedback_down: integer("feedback_down").notNull().default(0),
    feedback_scores: integer("feedback_scores").notNull().default(0),
    feedback_score_sum: doublePrecision("feedback_score_sum").notNull().default(0),
  },
  (t) => [
    primaryKey({
      columns: [
        t.workspace_id,
        t.grain,
        t.minute,
        t.service,
        t.collection,
        t.model,
        t.meta_key,
        t.meta_value,
      ],
    }),
  ],
);

/** Monitors' judge scores summed per minute of the answers' arrival, like answer_rollups. */
export const judge_rollups = pgTable(
  "judge_rollups",
  {
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** The bucket's width in seconds: 60 (a minute) or 3600 (an hour, for reads of hours and days). */
    grain: integer("grain").notNull(),
    minute: timestamp("minute", { withTimezone: true }).notNull(),
    service: text("service").notNull(),
    collection: text("collection").notNull(),
    model: text("model").notNull(),
    meta_key: text("meta_key").notNull(),
    meta_value: text("meta_value").notNull(),
    judge: text("judge").notNull(),
    count: integer("count").notNull().default(0),
    score_sum: doublePrecision("score_sum").notNull().default(0),
    passed: integer("passed").notNull().default(0),
  },
  (t) => [
    primaryKey({
      columns: [
        t.workspace_id,
        t.grain,
        t.minute,
        t.service,
        t.collection,
        t.model,
        t.meta_key,
        t.meta_value,
        t.judge,
      ],
    }),
  ],
);

/**
 * An annotation queue (issue 28 §2): items people label, each by `reviewers_per_item` of the
 * queue's reviewers. `source` says where its items came from (a run's results, an arena's pairs,
 * production answers) and how they were picked; `rubric` what each reviewer gives per item.
 */
export const annotation_queues = pgTable(
  "annotation_queues",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["run", "arena", "production"] }).notNull(),
    source: jsonb("source").$type<JsonObject>().notNull(),
    rubric: jsonb("rubric").$type<JsonObject>().notNull(),
    reviewers_per_item: integer("reviewers_per_item").notNull(),
    created_by: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("annotation_queues_workspace_idx").on(t.workspace_id, t.created_at)],
);

/** Who a queue is assigned to. */
export const annotation_queue_reviewers = pgTable(
  "annotation_queue_reviewers",
  {
    queue_id: uuid("queue_id")
      .notNull()
      .references(() => annotation_queues.id, { onDelete: "cascade" }),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.queue_id, t.user_id] })],
);

/**
 * One thing to label in a queue, with a copy of what a reviewer is shown (`content`), so later
 * changes to its source never change it, and the judge's verdict on it (`judge`), shown to a
 * reviewer only once they have labelled it. `subject` names the source: a run's result, an arena
 * pair on one question (with the side shown first), or a production answer. `final` is the
 * adjudicated label.
 */
export const annotation_items = pgTable(
  "annotation_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    queue_id: uuid("queue_id")
      .notNull()
      .references(() => annotation_queues.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    evaluation_result_id: uuid("evaluation_result_id").references(() => evaluation_results.id, {
      onDelete: "set null",
    }),
    subject: jsonb("subject").$type<JsonObject>().notNull(),
    content: jsonb("content").$type<JsonObject>().notNull(),
    judge: jsonb("judge").$type<JsonObject>(),
    final: jsonb("final").$type<JsonObject>(),
    final_by: uuid("final_by").references(() => users.id, { onDelete: "set null" }),
    final_at: timestamp("final_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("annotation_items_queue_position_idx").on(t.queue_id, t.position)],
);

/** A reviewer's label of one item on one criterion of the queue's rubric. */
export const annotation_labels = pgTable(
  "annotation_labels",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    queue_id: uuid("queue_id")
      .notNull()
      .references(() => annotation_queues.id, { onDelete: "cascade" }),
    item_id: uuid("item_id")
      .notNull()
      .references(() => annotation_items.id, { onDelete: "cascade" }),
    reviewer_id: uuid("reviewer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    criterion: text("criterion").notNull(),
    score: integer("score"),
    passed: boolean("passed"),
    /** Pairwise review: the contestant preferred, as the pair stores them (not as shown). */
    choice: text("choice", { enum: ["a", "b", "tie"] }),
    reason: text("reason"),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("annotation_labels_item_reviewer_criterion_idx").on(
      t.item_id,
      t.reviewer_id,
      t.criterion,
    ),
    index("annotation_labels_queue_idx").on(t.queue_id, t.reviewer_id),
  ],
);

/** A reviewer's hold on one slot of an item while they label it; it lapses at `expires_at`. */
export const annotation_locks = pgTable(
  "annotation_locks",
  {
    item_id: uuid("item_id")
      .notNull()
      .references(() => annotation_items.id, { onDelete: "cascade" }),
    reviewer_id: uuid("reviewer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspace_id: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    queue_id: uuid("queue_id")
      .notNull()
      .references(() => annotation_queues.id, { onDelete: "cascade" }),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.item_id, t.reviewer_id] }),
    index("annotation_locks_queue_idx").on(t.queue_id, t.reviewer_id),
  ],
);
