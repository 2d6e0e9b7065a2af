// Which answers a monitor takes up: its filter, then a sample. Pure.

import { createHash } from "node:crypto";
import type { MonitorFilter } from "./definition.js";

/** What the filter reads of an answer. */
export interface FilterableAnswer {
  id: string;
  service: string | null;
  collection: string | null;
  model: string | null;
  metadata: Record<string, unknown>;
  gate_status: string;
}

/** Feedback known on the answer when the filter is applied (absent when it just arrived). */
export type FeedbackSeen = { thumb: "up" | "down" | null } | undefined;

export function matchesFilter(
  filter: MonitorFilter,
  answer: FilterableAnswer,
  feedback: FeedbackSeen,
): boolean {
  if (filter.collection !== undefined && answer.collection !== filter.collection) return false;
  if (filter.model !== undefined && answer.model !== filter.model) return false;
  if (filter.service !== undefined && answer.service !== filter.service) return false;
  for (const [key, value] of Object.entries(filter.metadata ?? {})) {
    const actual = answer.metadata[key];
    if (actual === undefined || actual === null || String(actual) !== value) return false;
  }
  if (filter.gate && !filter.gate.includes(answer.gate_status as never)) return false;
  if (filter.feedback !== undefined) {
    if (!feedback) return false;
    if (filter.feedback !== "any" && feedback.thumb !== filter.feedback) return false;
  }
  return true;
}

/**
 * Whether the sample keeps an answer: a hash of (monitor, answer) below the rate, so the same
 * answer gets the same answer however often it is asked, and monitors sample independently.
 */
export function sampledIn(monitorId: string, answerId: string, rate: number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  const digest = createHash("sha256").update(`${monitorId}:${answerId}`).digest();
  return digest.readUInt32BE(0) / 0x1_0000_0000 < rate;
}
