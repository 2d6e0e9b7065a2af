// Seed 001 AC 4 as a report, not a test: 20 deliberately vague queries against the example
// collection; the quality score of the first grading (before any rewrite) against the last
// (after the loop). Goals: mean improvement >= +0.15; >= 60% of low queries end medium or high.
// Runs offline: the deterministic rewriter expands the query from the top documents.

import { fileURLToPath } from "node:url";
import { createBuiltinBot, createRetriever, runQualityLoop } from "../src/rag/index.js";
import { findOrCreateUser, openStore } from "../src/store/index.js";

const CORPUS = fileURLToPath(new URL("../examples/corpus", import.meta.url));

/** Vague on purpose: a word or two, no context, the way people type into a search box. */
export const VAGUE_QUERIES = [
  "metro",
  "when",
  "history?",
  "flood",
  "festival things",
  "money",
  "schools",
  "the bridge",
  "airport",
  "how many people",
  "opening",
  "trains",
  "harbour stuff",
  "what happened in 2016",
  "university",
  "澜汀",
  "节日",
  "洪水",
  "大学",
  "经济",
];

export interface RewriteQualityReport {
  queries: number;
  mean_score_before: number;
  mean_score_after: number;
  improvement: number;
  low_before: number;
  low_to_medium_or_high: number;
  /** Share of the initially-low queries that ended medium or high; null when none started low. */
  low_moved_share: number | null;
  mean_rewrites: number;
  goal_improvement_met: boolean;
  goal_moved_met: boolean;
}

export async function benchRewriteQuality(): Promise<RewriteQualityReport> {
  const store = await openStore({ memory: true });
  try {
    const user = await findOrCreateUser(store.db, "bench");
    const bot = createBuiltinBot({ db: store.db, workspaceId: user.id });
    const { collection_id } = await bot.ingestPaths([CORPUS], { name: "lanting" });
    const retriever = createRetriever({ db: store.db, workspaceId: user.id });
    let before = 0;
    let after = 0;
    let lowBefore = 0;
    let moved = 0;
    let rewrites = 0;
    for (const question of VAGUE_QUERIES) {
      const run = await runQualityLoop(
        { question, collection_id },
        { retrieve: retriever, questionRouter: retriever.routerFor(collection_id) },
      );
      const first = run.state.grades[0];
      const last = run.state.grades.at(-1);
      before += first?.quality_score ?? 0;
      after += last?.quality_score ?? 0;
      rewrites += run.state.retry_count;
      if (first?.quality_grade === "low") {
        lowBefore += 1;
        if (last && last.quality_grade !== "low") moved += 1;
      }
    }
    const n = VAGUE_QUERIES.length;
    const improvement = (after - before) / n;
    const share = lowBefore === 0 ? null : moved / lowBefore;
    return {
      queries: n,
      mean_score_before: before / n,
      mean_score_after: after / n,
      improvement,
      low_before: lowBefore,
      low_to_medium_or_high: moved,
      low_moved_share: share,
      mean_rewrites: rewrites / n,
      goal_improvement_met: improvement >= 0.15,
      goal_moved_met: share !== null && share >= 0.6,
    };
  } finally {
    await store.close();
  }
}
