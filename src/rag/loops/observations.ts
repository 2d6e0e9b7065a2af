// Seed 000: on a passing evaluation, `run` parses retrieved_nodes_score into observational data and
// appends it to observational_data.json. Here that file is JSON Lines, one record per passing
// answer (observation-file.ts: one O_APPEND write, private, rotated); the database gets one row
// per cited chunk (store's observational_data) through the injected appendObservations, where the
// `memory` source reads it.

import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import type { RetrievalSource } from "../types.js";
import { appendJsonLines, type ObservationFileLimits } from "./observation-file.js";

/** One retrieved node's scores, as seed 000's retrieved_nodes_score holds them. */
export interface RetrievedNodeScore {
  node_id: string;
  document_id: string;
  /** 1-based rank in the hits the answer was written from. */
  rank: number;
  score: number;
  source: RetrievalSource;
  sources: RetrievalSource[];
  scores: Record<string, number>;
  /** Whether the final answer cites it (set when the record is parsed). */
  cited: boolean;
}

/** A line of observational_data.jsonl and a row for appendObservations. */
export interface ObservationRecord {
  observation_id: string;
  created_at: string;
  collection_id: string;
  question: string;
  /** The query retrieval last ran with (after any rewrites). */
  retrieval_query: string;
  answer: string;
  citations: string[];
  /** Generations it took to pass (seed 000's epoch). */
  epoch: number;
  reviewer: "llm" | "offline";
  nodes: RetrievedNodeScore[];
}

/**
 * A row of store's observational_data without its workspace_id: one cited chunk of a passing answer.
 * Structurally store's NewObservation minus workspace_id, which the caller binds.
 */
export interface ObservationDbRow {
  collection_id: string;
  /** The user's question. */
  query: string;
  answer: string;
  node_id: string;
  /** The chunk's retrieval score (retrieved_nodes_score), in [0, 1]. */
  score: number;
}

/** store's appendObservations(db, rows) with the database and the user bound. */
export type AppendObservations = (rows: readonly ObservationDbRow[]) => Promise<unknown>;

/** The database rows of a record: one per cited chunk, in citation order. */
export function observationRows(record: ObservationRecord): ObservationDbRow[] {
  const rows: ObservationDbRow[] = [];
  for (const node_id of record.citations) {
    const node = record.nodes.find((n) => n.node_id === node_id);
    if (node === undefined) continue;
    rows.push({
      collection_id: record.collection_id,
      query: record.question,
      answer: record.answer,
      node_id,
      score: Number.isFinite(node.score) ? Math.min(Math.max(node.score, 0), 1) : 0,
    });
  }
  return rows;
}

export interface ObservationSource {
  collection_id: string;
  question: string;
  retrieval_query: string;
  answer: string;
  citations: readonly string[];
  epoch: number;
  reviewer: "llm" | "offline";
  retrieved_nodes_score: readonly RetrievedNodeScore[];
}

/** Parses the run's retrieved_nodes_score into the record to append (seed 000's 解析观测数据). */
export function parseObservation(
  source: ObservationSource,
  now: Date = new Date(),
  id: string = randomUUID(),
): ObservationRecord {
  const cited = new Set(source.citations);
  return {
    observation_id: id,
    created_at: now.toISOString(),
    collection_id: source.collection_id,
    question: source.question,
    retrieval_query: source.retrieval_query,
    answer: source.answer,
    citations: [...source.citations],
    epoch: source.epoch,
    reviewer: source.reviewer,
    nodes: source.retrieved_nodes_score.map((node) => ({
      ...node,
      cited: cited.has(node.node_id),
    })),
  };
}

export interface ObservationOutcome {
  record: ObservationRecord;
  /** null when no file is configured. */
  file: { path: string; ok: boolean; error?: string } | null;
  /** null when no appendObservations was given or the answer cites no chunk. */
  database: { ok: boolean; rows: number; error?: string } | null;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Writes one record to the file and the database, concurrently. A failed write is reported in the
 * outcome, never thrown: the answer passed and is returned either way.
 */
export async function recordObservation(
  record: ObservationRecord,
  targets: {
    path: string | null;
    /** The file's rotation; default OBSERVATION_FILE_DEFAULTS. */
    limits?: ObservationFileLimits;
    appendObservations?: AppendObservations;
  },
): Promise<ObservationOutcome> {
  const rows = targets.appendObservations ? observationRows(record) : [];
  const toDatabase = targets.appendObservations !== undefined && rows.length > 0;
  const [file, database] = await Promise.allSettled([
    targets.path === null
      ? Promise.resolve()
      : appendJsonLines(targets.path, [record], targets.limits),
    toDatabase ? targets.appendObservations?.(rows) : Promise.resolve(),
  ]);
  return {
    record,
    file:
      targets.path === null
        ? null
        : file.status === "fulfilled"
          ? { path: resolve(targets.path), ok: true }
          : { path: resolve(targets.path), ok: false, error: message(file.reason) },
    database: toDatabase
      ? database.status === "fulfilled"
        ? { ok: true, rows: rows.length }
        : { ok: false, rows: rows.length, error: message(database.reason) }
      : null,
  };
}
