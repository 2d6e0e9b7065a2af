// A claims judge's verdict (src/judges/claims/verdict.ts) read from a result's judges, checked
// field by field: the API types a verdict as any object, and a stored one may be older.

import type { JudgeResult } from "../../api/types";

export interface ClaimsDiagnosisView {
  approximate: string | null;
  missed: { claim: string; chunk: number | null }[];
  unsupported: { claim: string; contradicts: boolean; chunk: number | null }[];
}

const CLAIMS_JUDGES = ["claims", "claims_offline"] as const;

function chunkNumber(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 ? value : null;
}

function diagnosisOf(verdict: Record<string, unknown>): ClaimsDiagnosisView | undefined {
  const diagnosis = verdict.diagnosis as { missed?: unknown; unsupported?: unknown } | undefined;
  if (!diagnosis || !Array.isArray(diagnosis.missed) || !Array.isArray(diagnosis.unsupported)) {
    return undefined;
  }
  const entries = (list: unknown[]) =>
    list.filter(
      (entry): entry is Record<string, unknown> =>
        typeof entry === "object" &&
        entry !== null &&
        typeof (entry as { claim?: unknown }).claim === "string",
    );
  return {
    approximate: typeof verdict.approximate === "string" ? verdict.approximate : null,
    missed: entries(diagnosis.missed).map((entry) => ({
      claim: entry.claim as string,
      chunk: chunkNumber(entry.chunk),
    })),
    unsupported: entries(diagnosis.unsupported).map((entry) => ({
      claim: entry.claim as string,
      contradicts: entry.contradicts === true,
      chunk: chunkNumber(entry.chunk),
    })),
  };
}

/** The claims judges' diagnoses of one result, by judge name; none when no claims judge scored. */
export function claimsDiagnoses(
  judges: Record<string, JudgeResult>,
): [string, ClaimsDiagnosisView][] {
  return CLAIMS_JUDGES.flatMap((name) => {
    const judge = judges[name];
    if (judge?.outcome !== "ok") return [];
    const diagnosis = diagnosisOf(judge.verdict);
    return diagnosis ? [[name, diagnosis] as [string, ClaimsDiagnosisView]] : [];
  });
}
