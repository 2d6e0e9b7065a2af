import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, must } from "../../api/client";
import type { RunAction } from "./run-actions";

export const evaluationsKey = ["evaluations"] as const;

export function useEvaluations() {
  return useQuery({
    queryKey: evaluationsKey,
    queryFn: async () => {
      const data = await must(
        api.GET("/api/v1/evaluations", { params: { query: { limit: 500 } } }),
      );
      return data.items;
    },
    // While a run is live, keep its row moving.
    refetchInterval: (query) =>
      query.state.data?.some((e) => e.status === "RUNNING" || e.status === "PENDING")
        ? 2000
        : false,
  });
}

export function useRunAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: RunAction }) => {
      const path = { params: { path: { id } } };
      if (action === "delete") return must(api.DELETE("/api/v1/evaluations/{id}", path));
      if (action === "retry")
        return must(
          api.POST("/api/v1/evaluations/{id}/retry", { ...path, body: { scope: "failed" } }),
        );
      if (action === "pause") return must(api.POST("/api/v1/evaluations/{id}/pause", path));
      if (action === "resume") return must(api.POST("/api/v1/evaluations/{id}/resume", path));
      return must(api.POST("/api/v1/evaluations/{id}/cancel", path));
    },
    onSettled: (_data, _error, { id }) => {
      void queryClient.invalidateQueries({ queryKey: evaluationsKey });
      void queryClient.invalidateQueries({ queryKey: ["evaluation", id] });
    },
  });
}
