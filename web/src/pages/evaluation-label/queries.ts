import { useQuery } from "@tanstack/react-query";
import { api, must } from "../../api/client";
import type { components } from "../../api/schema";
import type { LabelScale } from "./shortcuts";

// The labelling view's server state: the result being labelled (blind until labelled: the server
// holds the judges back), the person's label writes, and the run's calibration report.

export type LabelItem = components["schemas"]["LabelItem"];
export type CalibrationReport = components["schemas"]["CalibrationReport"];
export type HumanLabel = components["schemas"]["HumanLabel"];

export const labelItemKey = (id: string, resultId: string, scale?: LabelScale) =>
  ["evaluation", id, "labels", "item", resultId, scale ?? "default"] as const;
export const calibrationKey = (id: string, judge?: string) =>
  ["evaluation", id, "calibration", judge ?? "default"] as const;

/** The first unlabelled judged result after `after` (a position), or null when there is none. */
export async function fetchNextToLabel(id: string, scale: LabelScale | undefined, after = -1) {
  return must(
    api.GET("/api/v1/evaluations/{id}/labels/next", {
      params: { path: { id }, query: { ...(scale ? { scale } : {}), after } },
    }),
  );
}

/**
 * The next unlabelled result after `after`, wrapping round to the start of the run: a result
 * skipped earlier is offered again once the end is reached. Null when every one is labelled.
 */
export async function nextUnlabelledId(
  id: string,
  scale: LabelScale | undefined,
  after: number,
): Promise<string | null> {
  const next = await fetchNextToLabel(id, scale, after);
  if (next.result) return next.result.id;
  if (after < 0 || next.unlabelled === 0) return null;
  return (await fetchNextToLabel(id, scale, -1)).result?.id ?? null;
}

/** Where to start: the first unlabelled result (or null), with the run's scales. */
export function useLabelStart(id: string, scale: LabelScale | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ["evaluation", id, "labels", "start", scale ?? "default"],
    queryFn: () => fetchNextToLabel(id, scale),
    enabled,
    staleTime: 0,
  });
}

export function useLabelItem(id: string, resultId: string | undefined, scale?: LabelScale) {
  return useQuery({
    queryKey: labelItemKey(id, resultId ?? "", scale),
    queryFn: () =>
      must(
        api.GET("/api/v1/evaluations/{id}/labels/items/{resultId}", {
          params: { path: { id, resultId: resultId ?? "" }, query: scale ? { scale } : {} },
        }),
      ),
    enabled: resultId !== undefined,
    // A result's verdict appears once it is labelled: never serve a blind copy from the cache.
    staleTime: 0,
    retry: false,
  });
}

export function putLabel(
  id: string,
  resultId: string,
  scale: LabelScale,
  body: { score?: number; passed?: boolean; note?: string },
) {
  return must(
    api.PUT("/api/v1/evaluations/{id}/results/{resultId}/labels/{scale}", {
      params: { path: { id, resultId, scale } },
      body,
    }),
  );
}

/** The first judged result of the run, to review labels from the start once all are done. */
export async function firstScoredResultId(id: string): Promise<string | null> {
  const page = await must(
    api.GET("/api/v1/evaluations/{id}/results", {
      params: { path: { id }, query: { status: "SCORED", limit: 1 } },
    }),
  );
  return page.items[0]?.id ?? null;
}

export function useCalibration(id: string, judge: string | undefined) {
  return useQuery({
    queryKey: calibrationKey(id, judge),
    queryFn: () =>
      must(
        api.GET("/api/v1/evaluations/{id}/calibration", {
          params: { path: { id }, query: judge ? { judge } : {} },
        }),
      ),
    retry: false,
  });
}
