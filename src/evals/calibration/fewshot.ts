// Seed 002 section 4 ("分數通膨"): the rubric judge drifts to 7-8; examples scored by people,
// spanning the scale and including a confident fabrication scored low, pull it back.

import type { CalibrationRow } from "../../store/index.js";
import { type CodedMessage, codedMessage } from "../../text/index.js";

export type FewshotRole = "confident_low" | "lowest" | "spanning";

export interface FewshotPick {
  row: CalibrationRow;
  role: FewshotRole;
}

/**
 * Picks `count` person-scored results: first an answer people scored in the lowest third that does
 * not abstain and that the judge over-scored the most (seed 002's fabricated example: a confident
 * answer that deserves a low score); then the ones nearest
 * to evenly spaced targets from the top of the scale down to its middle. Ties go to labels with a
 * note, then to the judge's larger miss, then to question order. Pure.
 */
export function pickFewshot(
  rows: readonly CalibrationRow[],
  options: {
    scale: { min: number; max: number };
    count: number;
    abstains: (answer: string) => boolean;
  },
): { picks: FewshotPick[]; warnings: CodedMessage[] } {
  const { scale, count } = options;
  const candidates = rows.filter(
    (row): row is CalibrationRow & { human_score: number; answer: string } =>
      row.human_score !== null && typeof row.answer === "string" && row.answer.trim() !== "",
  );
  const warnings: CodedMessage[] = [];
  if (candidates.length === 0) {
    return { picks: [], warnings: [codedMessage("fewshot.no_candidates")] };
  }
  const miss = (row: CalibrationRow) =>
    row.raw_score === null || row.human_score === null ? 0 : row.raw_score - row.human_score;
  const lowCutoff = scale.min + Math.floor(0.3 * (scale.max - scale.min));
  const used = new Set<string>();
  const picks: FewshotPick[] = [];

  const fabrication = candidates
    .filter((row) => row.human_score <= lowCutoff && !options.abstains(row.answer))
    .sort(
      (a, b) => miss(b) - miss(a) || a.human_score - b.human_score || a.position - b.position,
    )[0];
  if (fabrication) {
    picks.push({ row: fabrication, role: "confident_low" });
    used.add(fabrication.result_id);
  } else {
    warnings.push(codedMessage("fewshot.no_low_example", { cutoff: lowCutoff }));
  }

  const remaining = count - picks.length;
  const top = scale.max - 1;
  const middle = (scale.min + scale.max) / 2;
  const targets: number[] = [];
  if (!fabrication) targets.push(scale.min);
  const spanning = remaining - targets.length;
  for (let i = 0; i < spanning; i++) {
    targets.push(spanning === 1 ? top : top - ((top - middle) * i) / (spanning - 1));
  }
  for (const target of targets) {
    const best = candidates
      .filter((row) => !used.has(row.result_id))
      .sort(
        (a, b) =>
          Math.abs(a.human_score - target) - Math.abs(b.human_score - target) ||
          Number(Boolean(b.note)) - Number(Boolean(a.note)) ||
          Math.abs(miss(b)) - Math.abs(miss(a)) ||
          a.position - b.position,
      )[0];
    if (!best) break;
    used.add(best.result_id);
    picks.push({ row: best, role: target === scale.min && !fabrication ? "lowest" : "spanning" });
  }
  if (picks.length < count) {
    warnings.push(codedMessage("fewshot.few_candidates", { picked: picks.length, asked: count }));
  }
  return { picks, warnings };
}
