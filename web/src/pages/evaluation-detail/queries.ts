import {
  infiniteQueryOptions,
  keepPreviousData,
  useInfiniteQuery,
  useQuery,
} from "@tanstack/react-query";
import { api, must } from "../../api/client";
import type { EvaluationResultListItem } from "../../api/types";
import { type ResultFilters, searchFromFilters } from "./filters";

// A page of the list carries light rows (no sources, trace or judge outputs): 100 parse quickly.
export const RESULTS_PAGE_SIZE = 100;

export const evaluationKey = (id: string) => ["evaluation", id] as const;
export const resultsKey = (id: string) => ["evaluation", id, "results"] as const;
/** The run's charts; the summary's count of finished results is added to it by the page. */
export const chartsKey = (id: string) => ["evaluation", id, "charts"] as const;
/** One result in full; its row's update time is in the key, so a changed row is fetched again. */
export const resultKey = (id: string, resultId: string, updated: string) =>
  ["evaluation", id, "result", resultId, updated] as const;

export function useEvaluationDetail(id: string, live: boolean) {
  return useQuery({
    queryKey: evaluationKey(id),
    queryFn: async () => must(api.GET("/api/v1/evaluations/{id}", { params: { path: { id } } })),
    refetchInterval: live ? 5000 : false,
  });
}

/** The API's query for the filters (the URL keeps shorter names). */
export function resultsQueryOf(filters: ResultFilters) {
  return {
    ...(filters.status ? { status: filters.status.join(",") } : {}),
    ...(filters.outcome
      ? { passed: filters.outcome === "passed" ? ("true" as const) : ("false" as const) }
      : {}),
    ...(filters.gate ? { gate: filters.gate } : {}),
    ...(filters.type ? { question_type: filters.type } : {}),
    ...(filters.min !== undefined ? { score_min: filters.min } : {}),
    ...(filters.max !== undefined ? { score_max: filters.max } : {}),
    ...(filters.q ? { q: filters.q } : {}),
  };
}

/** One page of a run's results list under the filters (the server filters), in question order. */
export async function fetchResultsPage(
  id: string,
  filters: ResultFilters,
  offset: number,
  limit = RESULTS_PAGE_SIZE,
): Promise<{ items: EvaluationResultListItem[]; total: number }> {
  const data = await must(
    api.GET("/api/v1/evaluations/{id}/results", {
      params: { path: { id }, query: { ...resultsQueryOf(filters), offset, limit } },
    }),
  );
  return { items: data.items, total: data.total };
}

/** The first page is small, so the first cards show soon; later pages are larger. */
const FIRST_PAGE_SIZE = 50;

/** The query of a run's results list under the filters: pages fetched as the list scrolls. */
export function resultsQueryOptions(id: string, filters: ResultFilters) {
  return infiniteQueryOptions({
    queryKey: [...resultsKey(id), searchFromFilters(filters)],
    initialPageParam: 0,
    queryFn: async ({ pageParam }) => ({
      offset: pageParam,
      ...(await fetchResultsPage(
        id,
        filters,
        pageParam,
        pageParam === 0 ? FIRST_PAGE_SIZE : RESULTS_PAGE_SIZE,
      )),
    }),
    getNextPageParam: (last) =>
      last.offset + last.items.length < last.total ? last.offset + last.items.length : undefined,
  });
}

/**
 * The results list. While a new filter's first page loads, the previous list stays (placeholder
 * data) instead of emptying the page and filling it again.
 */
export function useResults(id: string, filters: ResultFilters) {
  return useInfiniteQuery({
    ...resultsQueryOptions(id, filters),
    placeholderData: keepPreviousData,
  });
}

/** One result in full (sources, checks, judges, trace), fetched when its card is opened. */
export function useResult(id: string, item: EvaluationResultListItem) {
  return useQuery({
    queryKey: resultKey(id, item.id, item.gmt_updated),
    queryFn: async () =>
      must(
        api.GET("/api/v1/evaluations/{id}/results/{resultId}", {
          params: { path: { id, resultId: item.id } },
        }),
      ),
    // A finished result does not change; one still running is keyed anew when its row changes.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Who did what to the run, newest first; asked again when the run's status moves. */
export function useRunHistory(id: string, status: string | undefined) {
  return useQuery({
    queryKey: ["evaluation", id, "history", status] as const,
    queryFn: async () =>
      (
        await must(
          api.GET("/api/v1/audit", {
            params: { query: { subject_type: "evaluation", subject_id: id } },
          }),
        )
      ).items,
  });
}
