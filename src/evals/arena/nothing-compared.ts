import { groupFailures } from "../../llm/index.js";
import { type CodedMessage, codedMessage } from "../../text/index.js";
import type { PairwiseJudgeError } from "./pairwise-run.js";
import type { Standings } from "./standings.js";

/**
 * Why an arena compared nothing, or undefined when some pair met on some question. With no game
 * at all every rating is the starting one and a "ranking" would be noise, so the arena failed
 * (issue 23 §1.4); a pairwise judge's errors are counted by kind, once.
 */
export function nothingCompared(results: {
  matrix: Standings["matrix"];
  judge_errors?: readonly PairwiseJudgeError[];
}): CodedMessage | undefined {
  const games = results.matrix.cells
    .flat()
    .reduce((n, cell) => n + (cell ? cell.wins + cell.ties + cell.losses : 0), 0);
  if (games > 0) return undefined;
  const errors = results.judge_errors ?? [];
  if (errors.length > 0) {
    const groups = groupFailures(errors.map((e) => ({ kind: e.kind, message: e.message })));
    return codedMessage("arena.all_judgments_failed", { n: errors.length, failures: groups });
  }
  return codedMessage("arena.no_usable_results");
}
