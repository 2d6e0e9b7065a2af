import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, must } from "../../api/client";
import type { operations } from "../../api/schema";

// The alert pages' server state: rules (list, one), a rule's history, and changes to rules.
// Rules and history are polled: the server's evaluator changes them without the page asking.

export const alertRulesKey = ["alert-rules"] as const;
const POLL_MS = 3_000;

export type NewAlertRule =
  operations["postAlertRules"]["requestBody"]["content"]["application/json"];

function createRule(body: NewAlertRule) {
  return must(api.POST("/api/v1/alert-rules", { body }));
}

export function useAlertRules() {
  return useQuery({
    queryKey: alertRulesKey,
    queryFn: async () => (await must(api.GET("/api/v1/alert-rules", {}))).items,
    refetchInterval: POLL_MS,
  });
}

export type AlertRule = NonNullable<ReturnType<typeof useAlertRules>["data"]>[number];

export function useAlertRule(id: string) {
  return useQuery({
    queryKey: [...alertRulesKey, "one", id],
    queryFn: () => must(api.GET("/api/v1/alert-rules/{id}", { params: { path: { id } } })),
    refetchInterval: POLL_MS,
  });
}

export function useAlertEvents(id: string) {
  return useQuery({
    queryKey: [...alertRulesKey, "events", id],
    queryFn: async () =>
      (await must(api.GET("/api/v1/alert-rules/{id}/events", { params: { path: { id } } }))).items,
    refetchInterval: POLL_MS,
  });
}

export type AlertEvent = NonNullable<ReturnType<typeof useAlertEvents>["data"]>[number];

export function useCreateAlertRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertRulesKey }),
  });
}

export function useSetAlertRuleEnabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) =>
      must(api.PATCH("/api/v1/alert-rules/{id}", { params: { path: { id } }, body: { enabled } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertRulesKey }),
  });
}

export function useDeleteAlertRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      must(api.DELETE("/api/v1/alert-rules/{id}", { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertRulesKey }),
  });
}
