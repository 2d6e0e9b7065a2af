import { useQuery } from "@tanstack/react-query";
import { api, must } from "../../api/client";
import type { paths } from "../../api/schema";

// The queue pages' server state: queues, their progress and agreement, items to adjudicate, and
// the reviewer's next item (handed out and locked by the server, blind until saved).

type Json<P extends keyof paths, M extends "get" | "post" | "put"> = paths[P][M] extends {
  responses: { 200: { content: { "application/json": infer T } } };
}
  ? T
  : paths[P][M] extends { responses: { 201: { content: { "application/json": infer T } } } }
    ? T
    : never;

export type Queue = Json<"/api/v1/queues/{id}", "get">;
export type QueueSummary = Json<"/api/v1/queues", "get">["items"][number];
export type NextItem = Json<"/api/v1/queues/{id}/next", "post">;
export type BlindItem = NonNullable<NextItem["item"]>;
export type Rubric = Queue["rubric"];
export type Criterion = Rubric["criteria"][number];
export type Saved = Json<"/api/v1/queues/{id}/items/{itemId}/label", "put">;
export type QueueItem = Json<"/api/v1/queues/{id}/items", "get">["items"][number];
export type Agreement = Json<"/api/v1/queues/{id}/agreement", "get">;
export type QueueRequest = NonNullable<
  paths["/api/v1/queues"]["post"]["requestBody"]
>["content"]["application/json"];
export type LabelValue = {
  criterion: string;
  score?: number;
  passed?: boolean;
  choice?: "a" | "b" | "tie";
};

export const queuesKey = ["queues"] as const;
export const queueKey = (id: string) => ["queues", id] as const;

export function useQueues() {
  return useQuery({
    queryKey: queuesKey,
    queryFn: async () => (await must(api.GET("/api/v1/queues", {}))).items,
  });
}

export function useQueue(id: string) {
  return useQuery({
    queryKey: queueKey(id),
    queryFn: () => must(api.GET("/api/v1/queues/{id}", { params: { path: { id } } })),
    retry: false,
  });
}

export function useReviewers(enabled: boolean) {
  return useQuery({
    queryKey: ["queues", "reviewers"],
    queryFn: async () => (await must(api.GET("/api/v1/queues/reviewers", {}))).items,
    enabled,
  });
}

export function useAgreement(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...queueKey(id), "agreement"],
    queryFn: () =>
      must(
        api.GET("/api/v1/queues/{id}/agreement", {
          params: { path: { id }, query: { disagreements: 20 } },
        }),
      ),
    enabled,
    retry: false,
  });
}

export function useQueueItems(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...queueKey(id), "items"],
    queryFn: () =>
      must(
        api.GET("/api/v1/queues/{id}/items", {
          params: { path: { id }, query: { order: "disagreement", limit: 50 } },
        }),
      ),
    enabled,
    retry: false,
  });
}

export function createQueue(body: QueueRequest) {
  return must(api.POST("/api/v1/queues", { body }));
}

export function nextItem(id: string) {
  return must(api.POST("/api/v1/queues/{id}/next", { params: { path: { id } } }));
}

export function saveLabel(id: string, itemId: string, labels: LabelValue[], reason?: string) {
  return must(
    api.PUT("/api/v1/queues/{id}/items/{itemId}/label", {
      params: { path: { id, itemId } },
      body: { labels, ...(reason ? { reason } : {}) },
    }),
  );
}

export function adjudicate(id: string, itemId: string, labels: LabelValue[], reason?: string) {
  return must(
    api.PUT("/api/v1/queues/{id}/items/{itemId}/final", {
      params: { path: { id, itemId } },
      body: { labels, ...(reason ? { reason } : {}) },
    }),
  );
}
