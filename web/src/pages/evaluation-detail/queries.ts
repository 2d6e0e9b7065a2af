import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { api, must } from "../../api/client";
import type { EvaluationDetail, EvaluationResult } from "../../api/types";
import { matchesFilters, type ResultFilters, searchFromFilters } from "./filters";

export const RESULTS_PAGE_SIZE = 200;

export const evaluationKey = (id: string) => ["evaluation", id] as const;
export const resultsKey = (id: string) => ["evaluation", id, "results"] as const;

export function useEvaluationDetail(id: string, live: boolean) {
  return useQuery({
    queryKey: evaluationKey(id),
    queryFn: async () =>
      (await must(
        api.GET("/api/v1/evaluations/{id}", { params: { path: { id } } }),
      )) as unknown as EvaluationDetail,
    refetchInterval: live ? 5000 : false,
  });
}

/** One page of a run's results under the filters, in question order. */
export async function fetchResultsPage(
  id: string,
  filters: ResultFilters,
  offset: number,
  limit = RESULTS_PAGE_SIZE,
) {
  const query = { ...searchFromFilters(filters), offset, limit } as Record<string, string | number>;
  const data = await must(
    api.GET("/api/v1/evaluations/{id}/results", {
      params: { path: { id }, query: query as never },
    }),
  );
  const items = (data as unknown as { items: EvaluationResult[] }).items;
  // The server filters what it can; the same test here keeps the list right either way.
  return { items: items.filter((r) => matchesFilters(r, filters)), fetched: items.length };
}

/** Pages of results fetched as the list scrolls. */
export function useResults(id: string, filters: ResultFilters) {
  return useInfiniteQuery({
    queryKey: [...resultsKey(id), searchFromFilters(filters)],
    initialPageParam: 0,
    queryFn: async ({ pageParam }) => ({
      offset: pageParam,
      ...(await fetchResultsPage(id, filters, pageParam)),
    }),
    getNextPageParam: (last) =>
      last.fetched < RESULTS_PAGE_SIZE ? undefined : last.offset + last.fetched,
  });
}

/** Every result under the filters, page by page (for the export). */
export async function fetchAllResults(
  id: string,
  filters: ResultFilters,
): Promise<EvaluationResult[]> {
  const all: EvaluationResult[] = [];
  for (let offset = 0; ;) {
    const page = await fetchResultsPage(id, filters, offset, 500);
    all.push(...page.items);
    if (page.fetched < 500) return all;
    offset += page.fetched;
  }
}
