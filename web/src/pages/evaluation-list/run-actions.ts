import type { EvaluationStatus } from "../../api/types";

export type RunAction = "pause" | "resume" | "cancel" | "retry" | "delete";

/**
 * The controls a run offers in its status. The server is the judge (it answers 409 otherwise);
 * this only hides buttons that cannot work.
 */
export function actionsFor(status: EvaluationStatus, failedItems: number): RunAction[] {
  switch (status) {
    case "PENDING":
    case "RUNNING":
      return ["pause", "cancel", "delete"];
    case "PAUSED":
      return ["resume", "cancel", "delete"];
    case "COMPLETED":
    case "FAILED":
    case "CANCELLED":
      return failedItems > 0 || status !== "COMPLETED" ? ["retry", "delete"] : ["delete"];
  }
}

export const LIVE_STATUSES: readonly EvaluationStatus[] = ["PENDING", "RUNNING"];
