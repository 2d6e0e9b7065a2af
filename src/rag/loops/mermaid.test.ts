import { describe, expect, it } from "vitest";
import { parseLoopsConfig } from "./config.js";
import { fixedRetriever, makeHit } from "./fixed-retriever.js";
import { answerLoopMermaid, qualityLoopMermaid } from "./mermaid.js";
import { runQualityLoop } from "./quality-loop.js";
import type { TraceStep } from "./state-machine.js";

const POOR = [makeHit({ node_id: "p1", content: "customs house repairs", score: 0.2 })];

describe("Mermaid diagrams", () => {
  it("draws seed 001's loop with its conditions and the budget exit", () => {
    expect(qualityLoopMermaid()).toBe(
      [
        "flowchart TD",
        "  START([start])",
        '  question_router["question_router"]',
        '  retrieve["retrieve"]',
        '  grade_documents["grade_documents"]',
        '  rewrite_query["rewrite_query"]',
        "  generate([generate])",
        '  budget{{"total latency #gt;= 10 s (any node)"}}',
        "  START --> question_router",
        "  question_router --> retrieve",
        "  retrieve --> grade_documents",
        '  grade_documents -->|"low and retry_count #lt; 2"| rewrite_query',
        '  grade_documents -->|"medium/high (score #gt;= 0.5) or retry_count #gt;= 2"| generate',
        "  rewrite_query --> question_router",
        "  budget -.-> generate",
        "",
      ].join("\n"),
    );
  });

  it("draws seed 000's loop", () => {
    const text = answerLoopMermaid();
    expect(text).toContain("  generate_answer --> eval_answer\n");
    expect(text).toContain(
      '  eval_answer -->|"failed and epoch #lt; GENER_EPOCH (3)"| generate_answer\n',
    );
    expect(text).toContain('  eval_answer -->|"passed, or epoch #gt;= GENER_EPOCH"| END\n');
    expect(text).not.toContain("linkStyle");
  });

  it("highlights the path a run took, with repeats counted", async () => {
    const run = await runQualityLoop(
      { question: "customs house", collection_id: "c" },
      { retrieve: fixedRetriever(POOR) },
    );
    const text = qualityLoopMermaid(run.trace);
    expect(text).toContain('  grade_documents["grade_documents ×3"]');
    expect(text).toContain('  rewrite_query["rewrite_query ×2"]');
    expect(text).toContain(
      '  grade_documents -->|"low and retry_count #lt; 2 (×2)"| rewrite_query',
    );
    expect(text).toContain(
      "  class START,question_router,retrieve,grade_documents,rewrite_query,generate taken",
    );
    // Edges 0-5 are the static ones; 6 (the budget) was not taken.
    expect(text).toContain("  linkStyle 0,1,2,3,4,5 stroke:#e4572e,stroke-width:3px");
  });

  it("highlights the budget exit of a run that timed out", () => {
    const trace: TraceStep[] = [
      {
        machine: "quality",
        node: "question_router",
        started_ms: 0,
        duration_ms: 0,
        summary: "",
        next: "retrieve",
      },
      {
        machine: "quality",
        node: "retrieve",
        started_ms: 0,
        duration_ms: 300,
        summary: "",
        next: "generate",
        timed_out: true,
      },
    ];
    const text = qualityLoopMermaid(trace, parseLoopsConfig({ quality: { budget_ms: 300 } }));
    expect(text).toContain('  budget{{"total latency #gt;= 0.3 s (any node)"}}');
    expect(text).toContain("  class START,question_router,retrieve,budget,generate taken");
    expect(text).toContain("  linkStyle 0,1,6 stroke:#e4572e,stroke-width:3px");
  });
});
