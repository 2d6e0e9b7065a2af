import { sql } from "drizzle-orm";
import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

// The one schema of ragjudge; migrations in drizzle/ are generated from it (`npm run db:generate`).

export const users = pgTable("users", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull().unique(),
  created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** API tokens are stored as sha256 hashes; the plaintext is shown once, at creation. */
export const api_tokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    token_hash: text("token_hash").notNull().unique(),
    label: text("label").notNull().default(""),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revoked_at: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("api_tokens_user_idx").on(t.user_id)],
);

/**
 * Seed 004 section 2.1 EvaluationRecordModel: one gate verdict, stored whole for audit and replay.
 * `input` keeps the evidence and answer so a record can be re-evaluated later.
 */
export const evaluation_records = pgTable(
  "evaluation_records",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    conversation_id: text("conversation_id").notNull(),
    message_id: text("message_id").notNull(),
    retrieval_record_id: text("retrieval_record_id").notNull(),
    generation_record_id: text("generation_record_id").notNull(),
    status: text("status", { enum: ["pass", "partial", "fail", "skipped"] }).notNull(),
    action: text("action", { enum: ["show", "show_with_warning", "refuse"] }).notNull(),
    rule_version: text("rule_version").notNull(),
    config: jsonb("config").notNull(),
    checks: jsonb("checks").notNull(),
    scores: jsonb("scores").notNull(),
    meta: jsonb("meta").notNull(),
    input: jsonb("input").notNull(),
    check_count: integer("check_count").notNull(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("evaluation_records_user_created_idx").on(t.user_id, t.created_at),
    index("evaluation_records_message_idx").on(t.user_id, t.conversation_id, t.message_id),
    index("evaluation_records_status_idx")
      .on(t.user_id, t.status)
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
    user_id: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    model: text("model").notNull(),
    response: jsonb("response").notNull(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.key] })],
);
