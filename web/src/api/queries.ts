import { useQuery } from "@tanstack/react-query";
import { api, must } from "./client";

// Lists several pages read: one cache entry each, shared.

export const questionSetsKey = ["question-sets"] as const;
export const collectionsKey = ["collections"] as const;

export function useQuestionSets() {
  return useQuery({
    queryKey: questionSetsKey,
    queryFn: async () => {
      return (await must(api.GET("/api/v1/question-sets", {}))).items;
    },
  });
}

export function useCollections() {
  return useQuery({
    queryKey: collectionsKey,
    queryFn: async () => {
      return (await must(api.GET("/api/v1/collections", {}))).items;
    },
  });
}

/** Which LLM roles the server has (model names only): forms disable what needs a missing one. */
export function useLlmStatus() {
  return useQuery({
    queryKey: ["llm"],
    queryFn: () => must(api.GET("/api/v1/llm")),
    staleTime: 5 * 60_000,
  });
}

export const workspacesKey = ["workspaces"] as const;

/** The workspaces the signed-in person belongs to, with their role in each. */
export function useWorkspaces(enabled = true) {
  return useQuery({
    queryKey: workspacesKey,
    queryFn: async () => (await must(api.GET("/api/v1/workspaces"))).items,
    enabled,
  });
}
