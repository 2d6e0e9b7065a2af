import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { api, must } from "../../api/client";
import { type ResultFilters, searchFromFilters } from "./filters";

// A page of results carries each answer with its sources: 100 keeps one parse short.
export const RESULTS_PAGE_SIZE = 100;

export const evaluationKey = (id: string) => ["evaluation", id] as const;
export const resultsKey = (id: string) => ["evaluation", id, "results"] as const;

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

/** One page of a run's results under the filters (the server filters), in question order. */
export async function fetchResultsPage(
  id: string,
  filters: ResultFilters,
  offset: number,
  limit = RESULTS_PAGE_SIZE,
) {
  const data = await must(
    api.GET("/api/v1/evaluations/{id}/results", {
      params: { path: { id }, query: { ...resultsQueryOf(filters), offset, limit } },
    }),
  );
  return { items: data.items, total: data.total };
}

/** The first page is small, so the first cards show soon; later pages are larger. */
const FIRST_PAGE_SIZE = 50;

/** Pages of results fetched as the list scrolls. */
export function useResults(id: string, filters: ResultFilters) {
  return useInfiniteQuery({
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
