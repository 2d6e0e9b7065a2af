// Parity with RAGChecker: given the claims and verdicts of the reference implementation's own
// example output (bench/data/public/ragchecker-example/checking_outputs.json, amazon-science/
// RAGChecker, Apache-2.0), claimMetrics and reportClaimMetrics give that file's per-item and
// overall `metrics`, every number equal.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ClaimVerdict, claimMetrics, reportClaimMetrics } from "./metrics.js";

interface CheckedItem {
  query_id: string;
  answer2response: ClaimVerdict[];
  response2answer: ClaimVerdict[];
  retrieved2response: ClaimVerdict[][];
  retrieved2answer: ClaimVerdict[][];
  metrics: Record<string, number>;
}

const file = join(
  import.meta.dirname,
  "..",
  "..",
  "..",
  "bench",
  "data",
  "public",
  "ragchecker-example",
  "checking_outputs.json",
);
const outputs = JSON.parse(readFileSync(file, "utf8")) as {
  results: CheckedItem[];
  metrics: Record<string, Record<string, number>>;
};

describe("RAGChecker parity (examples/checking_outputs.json)", () => {
  it.each(outputs.results.map((item) => [item.query_id, item] as const))(
    "item %s: every per-item metric equals RAGChecker's",
    (_id, item) => {
      const metrics = claimMetrics(item);
      expect(Object.keys(metrics).sort()).toEqual(Object.keys(item.metrics).sort());
      for (const [name, value] of Object.entries(item.metrics)) {
        expect({ name, value: metrics[name as keyof typeof metrics] }).toEqual({ name, value });
      }
    },
  );

  it("the overall report equals RAGChecker's, group by group", () => {
    const report = reportClaimMetrics(outputs.results.map((item) => claimMetrics(item)));
    expect(report).toEqual(outputs.metrics);
  });
});
