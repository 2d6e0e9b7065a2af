import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type ObservationDbRow,
  observationRows,
  parseObservation,
  type RetrievedNodeScore,
  recordObservation,
} from "./observations.js";

const dir = mkdtempSync(join(tmpdir(), "ragjudge-observations-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NODES: RetrievedNodeScore[] = [
  {
    node_id: "n1",
    document_id: "d1",
    rank: 1,
    score: 0.9,
    source: "vector",
    sources: ["vector"],
    scores: { rrf: 0.03 },
    cited: false,
  },
  {
    node_id: "n2",
    document_id: "d2",
    rank: 2,
    score: 0.7,
    source: "lexical",
    sources: ["lexical"],
    scores: {},
    cited: false,
  },
];

function record(citations: string[]) {
  return parseObservation(
    {
      collection_id: "c1",
      question: "What burned?",
      retrieval_query: "what burned fire",
      answer: "The town hall burned [n2].",
      citations,
      epoch: 2,
      reviewer: "llm",
      retrieved_nodes_score: NODES,
    },
    new Date("2026-01-02T03:04:05.000Z"),
    "obs-1",
  );
}

function readLines(path: string): unknown[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
}

describe("observations", () => {
  it("parses retrieved_nodes_score into a record and one database row per cited chunk", () => {
    const parsed = record(["n2"]);
    expect(parsed).toEqual({
      observation_id: "obs-1",
      created_at: "2026-01-02T03:04:05.000Z",
      collection_id: "c1",
      question: "What burned?",
      retrieval_query: "what burned fire",
      answer: "The town hall burned [n2].",
      citations: ["n2"],
      epoch: 2,
      reviewer: "llm",
      nodes: [
        { ...NODES[0], cited: false },
        { ...NODES[1], cited: true },
      ],
    });
    expect(observationRows(parsed)).toEqual([
      {
        collection_id: "c1",
        query: "What burned?",
        answer: "The town hall burned [n2].",
        node_id: "n2",
        score: 0.7,
      },
    ]);
  });

  it("writes the file and the database concurrently and reports failures instead of throwing", async () => {
    const path = join(dir, "record.jsonl");
    const rows: ObservationDbRow[][] = [];
    const ok = await recordObservation(record(["n1", "n2"]), {
      path,
      appendObservations: async (batch) => {
        rows.push([...batch]);
      },
    });
    expect(ok.file).toEqual({ path, ok: true });
    expect(ok.database).toEqual({ ok: true, rows: 2 });
    expect(rows[0]?.map((r) => r.node_id)).toEqual(["n1", "n2"]);
    expect(readLines(path)).toHaveLength(1);

    const failed = await recordObservation(record(["n1"]), {
      path: join(dir, "record.jsonl", "not-a-dir", "x.jsonl"),
      appendObservations: async () => {
        throw new Error("collection c1 not found");
      },
    });
    expect(failed.file?.ok).toBe(false);
    expect(failed.file?.error).toMatch(/ENOTDIR|EEXIST|not a directory/i);
    expect(failed.database).toEqual({ ok: false, rows: 1, error: "collection c1 not found" });

    const none = await recordObservation(record([]), {
      path: null,
      appendObservations: async () => {},
    });
    expect(none.file).toBeNull();
    expect(none.database).toBeNull();
  });
});
