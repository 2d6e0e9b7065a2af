import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api } from "../../api/client";
import { createSseParser } from "../../api/sse";
import type { EvaluationDetail, EvaluationStatus, Progress } from "../../api/types";
import { evaluationKey, resultsKey } from "./queries";

export type LiveState = "idle" | "streaming" | "polling";

/** How often new results refresh the list while a run streams: often enough to see, no more. */
const RESULTS_REFRESH_MS = 1000;

/**
 * Follows a running evaluation through its SSE stream, read with fetch (the session cookie rides
 * along) and a stream parser. Progress goes straight into the cached run; results refresh the
 * list at most once a second, so a fast run cannot flood the page. If the stream drops, the
 * caller falls back to polling ("polling").
 */
export function useLiveEvaluation(id: string, running: boolean): LiveState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>("idle");

  useEffect(() => {
    if (!running) {
      setState("idle");
      return;
    }
    const controller = new AbortController();
    let refreshTimer: ReturnType<typeof setTimeout> | undefined;
    const refreshResults = () => {
      if (refreshTimer) return;
      refreshTimer = setTimeout(() => {
        refreshTimer = undefined;
        void queryClient.invalidateQueries({ queryKey: resultsKey(id) });
      }, RESULTS_REFRESH_MS);
    };
    const onMessage = createSseParser((message) => {
      if (message.event === "progress") {
        const progress = JSON.parse(message.data) as Progress & { status: EvaluationStatus };
        queryClient.setQueryData<EvaluationDetail>(evaluationKey(id), (old) =>
          old
            ? {
                ...old,
                status: progress.status,
                completed_questions: progress.completed,
                progress: {
                  completed: progress.completed,
                  total: progress.total,
                  percent: progress.percent,
                  eta_seconds: progress.eta_seconds,
                },
              }
            : old,
        );
      } else if (message.event === "result") {
        refreshResults();
      } else if (message.event === "end") {
        void queryClient.invalidateQueries({ queryKey: evaluationKey(id) });
      }
    });

    (async () => {
      const { response } = await api.GET("/api/v1/evaluations/{id}/events", {
        params: { path: { id } },
        parseAs: "stream",
        signal: controller.signal,
      });
      if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
      setState("streaming");
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        onMessage(value);
      }
    })().then(
      () => {
        if (!controller.signal.aborted) {
          setState("idle");
          void queryClient.invalidateQueries({ queryKey: evaluationKey(id) });
          void queryClient.invalidateQueries({ queryKey: resultsKey(id) });
        }
      },
      () => {
        if (!controller.signal.aborted) setState("polling");
      },
    );
    return () => {
      controller.abort();
      if (refreshTimer) clearTimeout(refreshTimer);
    };
  }, [id, running, queryClient]);

  return state;
}
