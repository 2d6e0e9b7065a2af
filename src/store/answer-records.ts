// Production answers (issue 24): written a batch per statement, each answer once per
// (user, conversation_id, message_id) however often it is sent, into the day partition it was
// received in; retention drops whole days.

import { randomUUID } from "node:crypto";
import { and, desc, eq, exists, gte, lt, not, or, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { queryRows } from "./raw-query.js";
import { rollupAnswersCte } from "./answer-rollups.js";
import { columnNames, recordFields, recordset } from "./recordset.js";
import {
  answer_feedback,
  answer_keys,
  answer_records,
  monitor_judgments,
  rejected_traces,
} from "./schema.js";

export type AnswerRecordRow = typeof answer_records.$inferSelect;
export type NewAnswerRecordRow = Omit<typeof answer_records.$inferInsert, "id" | "received_at"> & {
  received_at: Date;
};

/** What became of each row given, in order. */
export interface StoredAnswer {
  id: string;
  /** True when the (conversation_id, message_id) was stored before: `id` is the first one's. */
  duplicate: boolean;
}

const PARTITION_PREFIX = "answer_records_p";
const DAY_MS = 86_400_000;

/** The UTC day of a time, as YYYY-MM-DD. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

function partitionOf(day: string): string {
  return `${PARTITION_PREFIX}${day.replaceAll("-", "")}`;
}

/** Days whose partition this process has seen exist, per database. */
const knownDays = new WeakMap<Db, Set<string>>();

/**
 * Creates the day partitions the rows need. Two processes may race to create one: the loser's
 * "already exists" (42P07) is the outcome both wanted.
 */
async function ensureDayPartitions(db: Db, days: Iterable<string>): Promise<void> {
  let known = knownDays.get(db);
  if (!known) {
    known = new Set();
    knownDays.set(db, known);
  }
  for (const day of days) {
    if (known.has(day)) continue;
    const next = utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS));
    try {
      await db.execute(
        sql.raw(
          `create table if not exists "${partitionOf(day)}" partition of "answer_records" ` +
            `for values from ('${day} 00:00:00+00') to ('${next} 00:00:00+00')`,
        ),
      );
    } catch (error) {
      if ((error as { code?: string }).code !== "42P07") throw error;
    }
    known.add(day);
  }
}

const COLUMNS = {
  id: answer_records.id,
  received_at: answer_records.received_at,
  workspace_id: answer_records.workspace_id,
  source: answer_records.source,
  conversation_id: answer_records.conversation_id,
  message_id: answer_records.message_id,
  session_id: answer_records.session_id,
  trace_id: answer_records.trace_id,
  service: answer_records.service,
  collection: answer_records.collection,
  model: answer_records.model,
  query: answer_records.query,
  answer: answer_records.answer,
  input: answer_records.input,
  latency_ms: answer_records.latency_ms,
  prompt_tokens: answer_records.prompt_tokens,
  completion_tokens: answer_records.completion_tokens,
  metadata: answer_records.metadata,
  gate_status: answer_records.gate_status,
  gate_action: answer_records.gate_action,
  rule_version: answer_records.rule_version,
  checks: answer_records.checks,
  scores: answer_records.scores,
  spans: answer_records.spans,
} satisfies Partial<Record<keyof AnswerRecordRow, PgColumn>>;

/**
 * Stores answers in one statement: their keys first (a key already taken marks a duplicate,
 * including a second copy inside the batch), then the rows whose keys were new. The batch is
 * written whole or not at all.
 */
export async function insertAnswerRecords(
  db: Db,
  rows: readonly NewAnswerRecordRow[],
  options: { breakdownKeys?: readonly string[] } = {},
): Promise<StoredAnswer[]> {
  if (rows.length === 0) return [];
  await ensureDayPartitions(db, new Set(rows.map((row) => utcDay(row.received_at))));
  const withIds = rows.map((row) => ({ ...row, id: randomUUID() }));
  const written = await queryRows<{ id: string }>(
    db,
    sql`with input as (select * from ${recordset("r", COLUMNS, withIds)}),
      new_keys as (
        insert into ${answer_keys} (workspace_id, conversation_id, message_id, answer_id, received_at)
        select workspace_id, conversation_id, message_id, id, received_at from input
        on conflict do nothing
        returning answer_id
      ),
      stored as (
        insert into ${answer_records} (${columnNames(COLUMNS)})
        select ${recordFields("input", COLUMNS)} from input
        where input.id in (select answer_id from new_keys)
        returning id, workspace_id, received_at, service, collection, model, metadata, gate_status,
          latency_ms, prompt_tokens, completion_tokens
      ),
      ${rollupAnswersCte("stored", options.breakdownKeys ?? [])}
      select id from stored`,
  );
  const stored = new Set(written.map((row) => row.id));
  const duplicates = withIds.filter((row) => !stored.has(row.id));
  const firstIds = new Map<string, string>();
  if (duplicates.length > 0) {
    const keys = await db
      .select()
      .from(answer_keys)
      .where(
        or(
          ...duplicates.map((row) =>
            and(
              eq(answer_keys.workspace_id, row.workspace_id),
              eq(answer_keys.conversation_id, row.conversation_id),
              eq(answer_keys.message_id, row.message_id),
            ),
          ),
        ),
      );
    for (const key of keys)
      firstIds.set(`${key.conversation_id}\n${key.message_id}`, key.answer_id);
  }
  return withIds.map((row) =>
    stored.has(row.id)
      ? { id: row.id, duplicate: false }
      : {
          id: firstIds.get(`${row.conversation_id}\n${row.message_id}`) ?? row.id,
          duplicate: true,
        },
  );
}

/** Another user's answer is indistinguishable from a missing one. */
export async function getAnswerRecord(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<AnswerRecordRow | undefined> {
  const [row] = await db
    .select()
    .from(answer_records)
    .where(and(eq(answer_records.id, idParam(id)), eq(answer_records.workspace_id, workspaceId)));
  return row;
}

/** A user's answer by the caller's own (conversation_id, message_id). */
export async function findAnswerRecordByKey(
  db: Db,
  workspaceId: string,
  conversationId: string,
  messageId: string,
): Promise<AnswerRecordRow | undefined> {
  const [key] = await db
    .select()
    .from(answer_keys)
    .where(
      and(
        eq(answer_keys.workspace_id, workspaceId),
        eq(answer_keys.conversation_id, conversationId),
        eq(answer_keys.message_id, messageId),
      ),
    );
  return key ? getAnswerRecord(db, workspaceId, key.answer_id) : undefined;
}

export interface AnswerListOptions {
  limit: number;
  /** The page after this answer (newest first). */
  before?: { received_at: Date; id: string };
  gate_status?: AnswerRecordRow["gate_status"][];
  service?: string;
  model?: string;
  /** Received at or after. */
  from?: Date;
  /** Received before. */
  to?: Date;
  /** Only answers with (true) or without (false) feedback. */
  has_feedback?: boolean;
}

/** A user's answers, newest first. */
export async function listAnswerRecords(
  db: Db,
  workspaceId: string,
  options: AnswerListOptions,
): Promise<AnswerRecordRow[]> {
  const conditions = [eq(answer_records.workspace_id, workspaceId)];
  if (options.before) {
    const { received_at, id } = options.before;
    conditions.push(
      or(
        lt(answer_records.received_at, received_at),
        and(eq(answer_records.received_at, received_at), lt(answer_records.id, idParam(id))),
      ) ?? sql`true`,
    );
  }
  if (options.gate_status?.length) {
    conditions.push(
      or(...options.gate_status.map((status) => eq(answer_records.gate_status, status))) ??
        sql`true`,
    );
  }
  if (options.service !== undefined) conditions.push(eq(answer_records.service, options.service));
  if (options.model !== undefined) conditions.push(eq(answer_records.model, options.model));
  if (options.from) conditions.push(gte(answer_records.received_at, options.from));
  if (options.to) conditions.push(lt(answer_records.received_at, options.to));
  if (options.has_feedback !== undefined) {
    const feedback = exists(
      db
        .select({ one: sql`1` })
        .from(answer_feedback)
        .where(
          and(
            eq(answer_feedback.workspace_id, answer_records.workspace_id),
            eq(answer_feedback.answer_id, answer_records.id),
          ),
        ),
    );
    conditions.push(options.has_feedback ? feedback : not(feedback));
  }
  return db
    .select()
    .from(answer_records)
    .where(and(...conditions))
    .orderBy(desc(answer_records.received_at), desc(answer_records.id))
    .limit(options.limit);
}

/**
 * Retention: drops every day partition that ends at or before `cutoff`'s day, and the keys of
 * the answers in them, their feedback and their monitors' judgments; the rollups stay. Returns
 * the days dropped.
 */
export async function dropAnswerDaysBefore(db: Db, cutoff: Date): Promise<string[]> {
  const cutoffDay = utcDay(cutoff);
  const partitions = await queryRows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_inherits i
        join pg_class c on c.oid = i.inhrelid
        join pg_class p on p.oid = i.inhparent
        where p.relname = 'answer_records'`,
  );
  const dropped: string[] = [];
  for (const { name } of partitions) {
    const digits = name.slice(PARTITION_PREFIX.length);
    if (!name.startsWith(PARTITION_PREFIX) || !/^\d{8}$/.test(digits)) continue;
    const day = `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;
    if (day >= cutoffDay) continue;
    await db.execute(sql.raw(`drop table if exists "${name}"`));
    knownDays.get(db)?.delete(day);
    dropped.push(day);
  }
  const dayStart = new Date(`${cutoffDay}T00:00:00Z`);
  await db.delete(answer_keys).where(lt(answer_keys.received_at, dayStart));
  await db.delete(answer_feedback).where(lt(answer_feedback.answer_received_at, dayStart));
  await db.delete(rejected_traces).where(lt(rejected_traces.received_at, dayStart));
  await db.delete(monitor_judgments).where(lt(monitor_judgments.answer_received_at, dayStart));
  return dropped.sort();
}
