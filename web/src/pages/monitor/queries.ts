import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, must } from "../../api/client";
import type { MonitorBody } from "./monitor-form";
import { type MonitorSearch, seriesQuery } from "./monitor-search";

// The monitor pages' server state: the series (from rollups), the scopes to choose from, and
// monitors with their create, update and delete.

export const monitorsKey = ["monitors"] as const;

export function useSeries(search: MonitorSearch) {
  return useQuery({
    queryKey: ["production-series", search],
    queryFn: () =>
      must(api.GET("/api/v1/production/series", { params: { query: seriesQuery(search) } })),
    refetchInterval: 60_000,
  });
}

export type Series = NonNullable<ReturnType<typeof useSeries>["data"]>;

export function useScopes() {
  return useQuery({
    queryKey: ["production-scopes"],
    queryFn: () => must(api.GET("/api/v1/production/scopes", {})),
  });
}

export function useMonitors() {
  return useQuery({
    queryKey: monitorsKey,
    queryFn: async () => (await must(api.GET("/api/v1/monitors", {}))).items,
  });
}

export type Monitor = NonNullable<ReturnType<typeof useMonitors>["data"]>[number];

export function useSaveMonitor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: MonitorBody }) =>
      id
        ? must(api.PUT("/api/v1/monitors/{id}", { params: { path: { id } }, body }))
        : must(api.POST("/api/v1/monitors", { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: monitorsKey }),
  });
}

export function useDeleteMonitor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      must(api.DELETE("/api/v1/monitors/{id}", { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: monitorsKey }),
  });
}
