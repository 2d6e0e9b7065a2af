import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { api } from "../../api/client";
import { createSseParser } from "../../api/sse";
import type { EvaluationDetail, EvaluationStatus, Progress } from "../../api/types";
import { chartsKey, evaluationKey, resultsKey } from "./queries";

export type LiveState = "idle" | "streaming" | "polling";

/** How often new results refresh the list while a run streams: often enough to see, no more. */
const RESULTS_REFRESH_MS = 1000;
/** How often the summary (and so the charts) refreshes while a run streams: it reads every row. */
const SUMMARY_REFRESH_MS = 5000;

const FINAL_STATUSES: readonly EvaluationStatus[] = ["COMPLETED", "FAILED", "CANCELLED"];

/**
 * Follows a running evaluation through its SSE stream, read with fetch (the session cookie rides
 * along) and a stream parser. Progress goes straight into the cached run; results refresh the
 * list at most once a second and the summary every few seconds, so a fast run cannot flood the
 * page. If the stream drops, the caller falls back to polling ("polling").
 *
 * The end of a run is seen once, whichever way it comes (a final `progress`, `end`, the stream
 * closing, or a poll): the run is fetched again, and when the page sees it final, everything the
 * page shows of it (results, charts) is fetched again too, so the page ends as a reload shows it.
 */
export function useLiveEvaluation(id: string, running: boolean): LiveState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>("idle");

  // Running -> final: the stream is closed by then (its effect cleaned up), so the last results
  // and the charts are fetched here, not by the stream's throttled refresh.
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && !running) {
      // A fetch already under way (the charts' key moves with the summary) is kept, not restarted.
      for (const queryKey of [resultsKey(id), chartsKey(id)]) {
        void queryClient.invalidateQueries({ queryKey }, { cancelRefetch: false });
      }
    }
    wasRunning.current = running;
  }, [id, running, queryClient]);

  useEffect(() => {
    if (!running) {
      setState("idle");
      return;
    }
    const controller = new AbortController();
    const summaryKey = evaluationKey(id);
    // The run itself, fresh: its final status arrives with the summary that goes with it.
    const refetchRun = () => queryClient.invalidateQueries({ queryKey: summaryKey, exact: true });
    const timers = new Map<string, ReturnType<typeof setTimeout>>();
    /** Runs `refresh` once after `ms`, however many times it is asked for meanwhile. */
    const refreshSoon = (name: string, ms: number, refresh: () => unknown) => {
      if (timers.has(name)) return;
      timers.set(
        name,
        setTimeout(() => {
          timers.delete(name);
          void refresh();
        }, ms),
      );
    };
    const onMessage = createSseParser((message) => {
      if (message.event === "progress") {
        const progress = JSON.parse(message.data) as Progress & { status: EvaluationStatus };
        // A final status waits for the run fetched again, so it shows with its final summary;
        // the count moves at once.
        const final = FINAL_STATUSES.includes(progress.status);
        if (final) void refetchRun();
        queryClient.setQueryData<EvaluationDetail>(summaryKey, (old) =>
          old
            ? {
                ...old,
                status: final ? old.status : progress.status,
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
        refreshSoon("results", RESULTS_REFRESH_MS, () =>
          queryClient.invalidateQueries({ queryKey: resultsKey(id) }),
        );
        refreshSoon("summary", SUMMARY_REFRESH_MS, refetchRun);
      } else if (message.event === "end") {
        void refetchRun();
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
          void refetchRun();
        }
      },
      () => {
        if (!controller.signal.aborted) setState("polling");
      },
    );
    return () => {
      controller.abort();
      for (const timer of timers.values()) clearTimeout(timer);
    };
  }, [id, running, queryClient]);

  return state;
}
