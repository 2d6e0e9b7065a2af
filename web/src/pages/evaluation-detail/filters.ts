import { ApiError } from "../../api/client";
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
  // The router reads numbers and true/false from the URL as such: a search for "42" is text.
  if (typeof value === "number" || typeof value === "boolean") return String(value);
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

/** The filters in the order the bar shows them, each only when set. */
export const FILTER_ORDER = ["status", "outcome", "gate", "type", "min", "max", "q"] as const;
export type FilterName = (typeof FILTER_ORDER)[number];

export function activeFilters(filters: ResultFilters): FilterName[] {
  return FILTER_ORDER.filter((name) => {
    const value = filters[name];
    return Array.isArray(value) ? value.length > 0 : value !== undefined && value !== "";
  });
}

/** Why a score bound typed into the bar cannot be used; none when it can (empty is no bound). */
export type ScoreIssue = "notNumber" | "outOfRange";

export function readScoreInput(
  input: string,
): { value: number | undefined } | { issue: ScoreIssue } {
  const trimmed = input.trim();
  if (trimmed === "") return { value: undefined };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { issue: "notNumber" };
  return value >= 0 && value <= 1 ? { value } : { issue: "outOfRange" };
}

// The API's names for the filters (`score_min`), and the URL's (`min`).
const API_NAMES: Record<string, FilterName> = {
  status: "status",
  passed: "outcome",
  gate: "gate",
  question_type: "type",
  score_min: "min",
  score_max: "max",
  q: "q",
};

/**
 * A server's refusal (400) of the filters, placed beside the filters its issues name; what names no
 * filter goes under `list`. Nothing for any other error.
 */
export function filterErrorsOf(error: unknown): Partial<Record<FilterName | "list", string>> {
  if (!ApiError.isInstance(error) || error.status !== 400) return {};
  const issues = (error.body as { issues?: { path?: unknown; message?: unknown }[] } | undefined)
    ?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return { list: error.message };
  const errors: Partial<Record<FilterName | "list", string>> = {};
  for (const issue of issues) {
    const name = API_NAMES[String(issue.path)] ?? "list";
    const message = typeof issue.message === "string" ? issue.message : error.message;
    errors[name] = errors[name] ? `${errors[name]}; ${message}` : message;
  }
  return errors;
}
