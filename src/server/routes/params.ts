import { z } from "zod";
import { RESULTS_PAGE } from "../../evals/monitor/index.js";
import { isUuid } from "../../store/index.js";

// Shared parameter shapes. Page limits live here once: the routes clamp with them and the
// OpenAPI document shows them, from the same schema.

/**
 * An id in a path. The store reads a malformed id as missing too (store/ids.ts); checking it here
 * answers 404 before a body is read.
 */
export const uuid = z.string().refine(isUuid, "not a UUID").meta({ format: "uuid" });

/** A path id; a malformed one is simply not found (404), like another user's. */
export const IdParams = z.object({ id: uuid });

/** A run's id and one of its results' ids; either malformed is not found (404). */
export const ResultIdParams = z.object({ id: uuid, resultId: uuid });

export const PAGE_LIMITS = {
  records: { default: 50, max: 500 },
  evaluations: { default: 100, max: 500 },
  results: RESULTS_PAGE,
} as const;

export function pageLimit(limits: { default: number; max: number }) {
  return z.coerce
    .number()
    .int()
    .min(1)
    .max(limits.max)
    .optional()
    .describe(`page size, 1-${limits.max} (default ${limits.default})`);
}

export function pageOffset(max = 10_000_000) {
  return z.coerce.number().int().min(0).max(max).optional().describe("rows to skip (default 0)");
}
