import { RESULT_STATUSES, type ResultStatus } from "../../api/types";

// The detail page's filters live in the URL (a filtered view can be shared and survives a
// reload). These functions are the only translation between the two.

export interface ResultFilters {
  status?: ResultStatus[];
  outcome?: "passed" | "failed";
  gate?: string;
  type?: string;
  min?: number;
  max?: number;
  q?: string;
}

export type SearchParams = Record<string, unknown>;

function text(value: unknown): string | undefined {
  if (typeof value === "number") return String(value);
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

function score(value: unknown): number | undefined {
  const raw = text(value);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : undefined;
}

/** Reads filters from URL search values, dropping what is malformed rather than failing. */
export function filtersFromSearch(search: SearchParams): ResultFilters {
  const filters: ResultFilters = {};
  const statuses = (text(search.status) ?? "")
    .split(",")
    .map((s) => s.trim().toUpperCase())
    .filter((s): s is ResultStatus => (RESULT_STATUSES as readonly string[]).includes(s));
  if (statuses.length > 0) filters.status = [...new Set(statuses)];
  const outcome = text(search.outcome);
  if (outcome === "passed" || outcome === "failed") filters.outcome = outcome;
  const gate = text(search.gate);
  if (gate) filters.gate = gate;
  const type = text(search.type);
  if (type) filters.type = type;
  const min = score(search.min);
  const max = score(search.max);
  if (min !== undefined) filters.min = min;
  if (max !== undefined) filters.max = max;
  const q = text(search.q);
  if (q) filters.q = q;
  return filters;
}

/** The URL search values for filters: only the ones set, in a stable order. */
export function searchFromFilters(filters: ResultFilters): Record<string, string> {
  const search: Record<string, string> = {};
  if (filters.status && filters.status.length > 0) search.status = filters.status.join(",");
  if (filters.outcome) search.outcome = filters.outcome;
  if (filters.gate) search.gate = filters.gate;
  if (filters.type) search.type = filters.type;
  if (filters.min !== undefined) search.min = String(filters.min);
  if (filters.max !== undefined) search.max = String(filters.max);
  if (filters.q) search.q = filters.q;
  return search;
}

export function hasFilters(filters: ResultFilters): boolean {
  return Object.keys(searchFromFilters(filters)).length > 0;
}
