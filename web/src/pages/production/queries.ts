import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, must } from "../../api/client";
import { type AnswerFilters, answerQuery } from "./filters";

// The production pages' server state: answers (a filtered list, one answer with its feedback),
// feedback added, and ingest keys.

export const answersKey = ["answers"] as const;
export const ingestKeysKey = ["ingest-keys"] as const;

export function useAnswers(filters: AnswerFilters, before: string | undefined) {
  return useQuery({
    queryKey: [...answersKey, "list", filters, before ?? ""],
    queryFn: () =>
      must(
        api.GET("/api/v1/answers", {
          params: {
            query: {
              ...answerQuery(filters, new Date()),
              limit: 50,
              ...(before ? { before } : {}),
            },
          },
        }),
      ),
  });
}

export type AnswerListPage = NonNullable<ReturnType<typeof useAnswers>["data"]>;

export function useAnswer(id: string) {
  return useQuery({
    queryKey: [...answersKey, "one", id],
    queryFn: () => must(api.GET("/api/v1/answers/{id}", { params: { path: { id } } })),
  });
}

export type ProductionAnswer = NonNullable<ReturnType<typeof useAnswer>["data"]>;

export interface FeedbackDraft {
  thumb?: "up" | "down";
  score?: number;
  comment?: string;
}

export function useAddFeedback(answerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (feedback: FeedbackDraft) =>
      must(
        api.POST("/api/v1/answers/{id}/feedback", {
          params: { path: { id: answerId } },
          body: feedback,
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: answersKey }),
  });
}

export function useIngestKeys() {
  return useQuery({
    queryKey: ingestKeysKey,
    queryFn: async () => (await must(api.GET("/api/v1/ingest-keys", {}))).items,
  });
}

export function useCreateIngestKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (label: string) => must(api.POST("/api/v1/ingest-keys", { body: { label } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ingestKeysKey }),
  });
}

export function useRevokeIngestKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      must(api.DELETE("/api/v1/ingest-keys/{id}", { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ingestKeysKey }),
  });
}
