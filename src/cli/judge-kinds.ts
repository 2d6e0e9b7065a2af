import { JUDGE_KINDS, type JudgeKind } from "../judges/index.js";
import { UsageError } from "./usage-error.js";

/** `--judge a,b`: the named judges, each once, in order; an empty or unknown name is a usage error. */
export function parseJudgeKinds(text: string): JudgeKind[] {
  const kinds = [
    ...new Set(
      text
        .split(",")
        .map((kind) => kind.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = kinds.filter((kind) => !(JUDGE_KINDS as readonly string[]).includes(kind));
  if (kinds.length === 0 || unknown.length > 0) {
    throw new UsageError(`--judge takes ${JUDGE_KINDS.join(", ")} (got "${text}")`);
  }
  return kinds as JudgeKind[];
}
