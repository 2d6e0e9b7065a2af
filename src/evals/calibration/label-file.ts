import { z } from "zod";
import { fieldIssues, readLines } from "../../formats/index.js";
import { parseStrictJson } from "../../text/index.js";
import type { LabelScale, LabelTarget, NewHumanLabel } from "../../store/index.js";
import { questionKey } from "../questions/index.js";
import { labelIssue } from "./scales.js";

/** One line of `ragjudge label import`: a person's score of the answer to one question. */
export const LabelLineSchema = z
  .object({
    question: z.string().trim().min(1, "a non-empty question"),
    human_score: z.number().optional(),
    human_passed: z.boolean().optional(),
    note: z.string().max(4_000).optional(),
    labelled_by: z.string().trim().min(1).max(200).optional(),
  })
  .refine((line) => line.human_score !== undefined || line.human_passed !== undefined, {
    path: ["human_score"],
    message: "human_score or human_passed is required",
  });
export type LabelLine = z.infer<typeof LabelLineSchema>;

export interface LabelFileIssue {
  line: number;
  field: string;
  message: string;
}

export interface LabelFileOptions {
  /** The scale human_score is on; null when the run's judges have none (review only). */
  scale: Exclude<LabelScale, "pass_fail"> | null;
  /** Default labeller for lines without labelled_by. */
  labelledBy: string;
}

/** Results whose answer a person can score. */
const LABELLABLE = new Set(["SCORED", "JUDGE_ERROR"]);

/**
 * Reads a label file (JSONL, strict UTF-8) and matches each line to a result of the run by its
 * question (compared as question sets compare them: case, punctuation and spacing aside). Returns
 * every label, or every problem, each named by line and field: a caller writes all or nothing.
 */
export async function readLabelFile(
  source: AsyncIterable<Uint8Array | string>,
  targets: readonly LabelTarget[],
  options: LabelFileOptions,
): Promise<{ labels: NewHumanLabel[]; issues: LabelFileIssue[]; lines: number }> {
  const byKey = new Map(targets.map((target) => [questionKey(target.question_text), target]));
  const seen = new Map<string, number>();
  const labels: NewHumanLabel[] = [];
  const issues: LabelFileIssue[] = [];
  let lines = 0;
  for await (const read of readLines(source)) {
    lines++;
    const { line } = read;
    if (read.text === undefined) {
      issues.push({ line, field: "(line)", message: read.error ?? "unreadable line" });
      continue;
    }
    // The rules every surface shares: no NUL or lone surrogate, bounded nesting.
    const json = parseStrictJson(read.text);
    if (!json.ok) {
      issues.push(
        json.kind === "malformed"
          ? { line, field: "(line)", message: `malformed JSON: ${json.message}` }
          : { line, field: json.path, message: json.message },
      );
      continue;
    }
    const parsed = LabelLineSchema.safeParse(json.value);
    if (!parsed.success) {
      for (const issue of fieldIssues(parsed.error)) {
        issues.push({ line, field: issue.path || "(line)", message: issue.message });
      }
      continue;
    }
    const value = parsed.data;
    const key = questionKey(value.question);
    const target = byKey.get(key);
    if (!target) {
      issues.push({
        line,
        field: "question",
        message: `no result of this evaluation asks "${value.question.slice(0, 80)}"`,
      });
      continue;
    }
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      issues.push({ line, field: "question", message: `already labelled on line ${earlier}` });
      continue;
    }
    seen.set(key, line);
    if (!LABELLABLE.has(target.status)) {
      issues.push({
        line,
        field: "question",
        message: `its result is ${target.status}: there is no judged answer to label`,
      });
      continue;
    }
    const common = {
      evaluation_result_id: target.id,
      note: value.note ?? null,
      labelled_by: value.labelled_by ?? options.labelledBy,
    };
    const lineLabels: NewHumanLabel[] = [];
    let bad = false;
    if (value.human_score !== undefined) {
      if (options.scale === null) {
        issues.push({
          line,
          field: "human_score",
          message: "this run's judges have no score scale (review is pass/fail): give human_passed",
        });
        bad = true;
      } else {
        const issue = labelIssue(options.scale, { score: value.human_score });
        if (issue) {
          issues.push({ line, field: "human_score", message: issue.message });
          bad = true;
        } else {
          lineLabels.push({
            ...common,
            scale: options.scale,
            score: value.human_score,
            passed: null,
          });
        }
      }
    }
    if (value.human_passed !== undefined) {
      lineLabels.push({ ...common, scale: "pass_fail", score: null, passed: value.human_passed });
    }
    if (!bad) labels.push(...lineLabels);
  }
  return { labels, issues, lines };
}
