import { useQuery } from "@tanstack/react-query";
import { api, must } from "../../api/client";
import type { EvaluationListItem } from "../../api/types";

// The arena pages' server state: the list, one arena (followed while it is queued or running),
// and the finished runs a new arena can reuse.

export const arenasKey = ["arenas"] as const;

const open = (status: string | undefined) => status === "PENDING" || status === "RUNNING";

export function useArenas() {
  return useQuery({
    queryKey: arenasKey,
    queryFn: async () =>
      (await must(api.GET("/api/v1/arenas", { params: { query: { limit: 200 } } }))).items,
    refetchInterval: (query) => (query.state.data?.some((a) => open(a.status)) ? 2000 : false),
  });
}

export type Arena = NonNullable<ReturnType<typeof useArenas>["data"]>[number];
export type ArenaResults = NonNullable<Arena["results"]>;

export function useArena(id: string) {
  return useQuery({
    queryKey: [...arenasKey, id],
    queryFn: () => must(api.GET("/api/v1/arenas/{id}", { params: { path: { id } } })),
    // The comparison runs in a worker: follow the stored row until it is final.
    refetchInterval: (query) => (open(query.state.data?.status) ? 1500 : false),
  });
}

/** The user's finished runs (any contestant's run is reused as it is). */
export function useFinishedRuns() {
  return useQuery({
    queryKey: ["evaluations", "finished"],
    queryFn: async () => {
      const data = await must(
        api.GET("/api/v1/evaluations", { params: { query: { limit: 500 } } }),
      );
      return data.items.filter((e): e is EvaluationListItem => e.status === "COMPLETED");
    },
  });
}
