import { describe, expect, it } from "vitest";
import type { JudgeResult } from "../../api/types";
import { claimsDiagnoses } from "./claims-verdict";

const ok = (verdict: Record<string, unknown>): JudgeResult => ({
  name: "claims_offline",
  outcome: "ok",
  score: 0.5,
  raw_score: 0.5,
  passed: true,
  verdict,
});

describe("claimsDiagnoses", () => {
  it("reads the missed and unsupported claims with their passages", () => {
    const diagnoses = claimsDiagnoses({
      claims_offline: ok({
        approximate: "approximate: sentences as claims, offline entailment",
        diagnosis: {
          missed: [{ claim: "It flows into the sea.", chunk: null }],
          unsupported: [{ claim: "It flows through Uganda.", contradicts: false, chunk: 2 }],
        },
        chunks: [{ relevant: true }, { node_id: "n2", source: "nile.md", relevant: false }],
      }),
    });
    expect(diagnoses).toEqual([
      [
        "claims_offline",
        {
          approximate: "approximate: sentences as claims, offline entailment",
          missed: [{ claim: "It flows into the sea.", chunk: null }],
          unsupported: [{ claim: "It flows through Uganda.", contradicts: false, chunk: 2 }],
        },
      ],
    ]);
  });

  it("skips other judges, failed claims judges and verdicts without a diagnosis", () => {
    expect(
      claimsDiagnoses({
        offline: ok({ diagnosis: { missed: [], unsupported: [] } }),
        claims: ok({ metrics: {} }),
      }),
    ).toEqual([]);
  });
});
