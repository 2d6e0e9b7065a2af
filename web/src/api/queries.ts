import { useQuery } from "@tanstack/react-query";
import { api, must } from "./client";
import type { Collection, QuestionSet } from "./types";

// Lists several pages read: one cache entry each, shared.

export const questionSetsKey = ["question-sets"] as const;
export const collectionsKey = ["collections"] as const;

export function useQuestionSets() {
  return useQuery({
    queryKey: questionSetsKey,
    queryFn: async () => {
      const data = await must(api.GET("/api/v1/question-sets", {}));
      return (data as unknown as { items: QuestionSet[] }).items;
    },
  });
}

export function useCollections() {
  return useQuery({
    queryKey: collectionsKey,
    queryFn: async () => {
      const data = await must(api.GET("/api/v1/collections", {}));
      return (
        data as unknown as {
          items: (Collection & { document_count?: number; chunk_count?: number })[];
        }
      ).items;
    },
  });
}
