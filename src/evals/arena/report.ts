import { renderTable } from "../../formats/index.js";
import { formatCost } from "../../llm/index.js";
import type { ArenaResults } from "./service.js";

// The arena as a person reads it (table, Markdown) or a program does (JSON). The sections are
// built once and drawn by either text renderer, like evals/reports.

export const ARENA_FORMATS = ["table", "json", "markdown", "html"] as const;
export type ArenaFormat = (typeof ARENA_FORMATS)[number];

/** What a report shows about the arena row itself. */
export interface ArenaHeader {
  id: string;
  name: string;
  status: string;
}

export interface ArenaReport extends ArenaHeader {
  results: ArenaResults;
}

interface Section {
  title: string;
  headers: string[];
  rows: string[][];
  alignRight: number[];
  notes: string[];
}

const pct = (x: number | null) => (x === null ? "-" : `${(x * 100).toFixed(1)}%`);
const num = (x: number, digits = 1) => x.toFixed(digits);
const signed = (x: number, digits = 3) => `${x >= 0 ? "+" : ""}${x.toFixed(digits)}`;
const interval = (ci: readonly [number, number] | null | undefined, digits = 1) =>
  ci ? `[${num(ci[0], digits)}, ${num(ci[1], digits)}]` : "-";

export function arenaSections(report: ArenaReport): Section[] {
  const r = report.results;
  const sections: Section[] = [];
  const scoreBased = r.judge !== "pairwise";
  sections.push({
    title: `Ratings (Bradley-Terry, 1000 = average; 95% bootstrap CI over ${r.questions} questions, ${r.bootstrap.rounds} rounds, random seed ${r.bootstrap.seed})`,
    headers: [
      "rank",
      "contestant",
      "rating",
      "95% CI",
      "win rate",
      "W",
      "T",
      "L",
      "length-controlled",
      "mean length",
      scoreBased ? "scored" : "answered",
    ],
    rows: r.contestants.map((c) => [
      String(c.rank),
      c.name,
      num(c.rating),
      interval(c.ci),
      pct(c.win_rate),
      String(c.wins),
      String(c.ties),
      String(c.losses),
      `${num(c.length_controlled.rating)} ${interval(c.length_controlled.ci)}`,
      c.mean_length === null ? "-" : num(c.mean_length, 0),
      `${scoreBased ? c.scored : c.answered}/${r.questions}`,
    ]),
    alignRight: [0, 2, 4, 5, 6, 7, 9],
    notes: [
      r.not_distinguishable.length > 0
        ? `Not distinguishable on this set (the 95% interval of their paired difference contains 0): ${r.not_distinguishable.map(([a, b]) => `${a} ~ ${b}`).join(", ")}`
        : "Every pair is distinguishable on this set (no pair's 95% paired-difference interval contains 0).",
      `Length: coefficient ${signed(r.length_control.coefficient)} ${interval(r.length_control.ci, 3)} log-odds for the longer answer at the largest length difference (over ${r.length_control.comparisons} comparisons)${
        r.length_control.ci[0] > 0
          ? ": the judge favours longer answers; read the length-controlled ratings."
          : r.length_control.ci[1] < 0
            ? ": the judge favours shorter answers."
            : ": no length preference detected."
      }`,
      ...(r.bradley_terry.regularized
        ? [
            "A contestant won or lost every comparison: one virtual tie per pair was added so the ratings stay finite.",
          ]
        : []),
    ],
  });
  sections.push({
    title: scoreBased
      ? `Pairs (${r.judge} judge scores; a tie within ${r.tolerance ?? 0}; mean paired difference with its bootstrap CI)`
      : "Pairs (pairwise judge, both orders; a win only when both orders agree; net wins of a per question, win 1, tie 0, loss -1, with its bootstrap CI)",
    headers: [
      "a",
      "b",
      "a wins",
      "ties",
      "b wins",
      "not compared",
      scoreBased ? "mean a - b" : "net wins of a",
      "95% CI",
      "distinguishable",
    ],
    rows: r.pairs.map((p) => [
      p.a,
      p.b,
      String(p.wins),
      String(p.ties),
      String(p.losses),
      String(p.missing),
      p.mean_difference == null ? "-" : signed(p.mean_difference),
      interval(p.difference_ci, 3),
      p.distinguishable ? "yes" : "no",
    ]),
    alignRight: [2, 3, 4, 5],
    notes: [],
  });
  const names = r.matrix.names;
  sections.push({
    title: "Win matrix (row against column: wins-ties-losses)",
    headers: ["", ...names],
    rows: names.map((name, i) => [
      name,
      ...names.map((_, j) => {
        const cell = r.matrix.cells[i]?.[j];
        return cell ? `${cell.wins}-${cell.ties}-${cell.losses}` : "·";
      }),
    ]),
    alignRight: names.map((_, j) => j + 1),
    notes: [],
  });
  if (r.contestants.some((c) => Object.values(c.radar).some((v) => v !== null))) {
    sections.push({
      title: "Rubric dimensions (accuracy, completeness, clarity; 1-10, means)",
      headers: ["contestant", "accuracy", "completeness", "clarity"],
      rows: r.contestants.map((c) => [
        c.name,
        ...(["accuracy", "completeness", "clarity"] as const).map((k) => {
          const v = c.radar[k];
          return v === null ? "-" : num(v, 2);
        }),
      ]),
      alignRight: [1, 2, 3],
      notes: [],
    });
  }
  if (r.flip_rate) {
    sections.push({
      title: "Pairwise judge",
      headers: ["judge model", "pairs judged both ways", "position flips", "flip rate"],
      rows: Object.entries(r.flip_rate).map(([model, f]) => [
        model,
        String(f.judged),
        String(f.flipped),
        pct(f.rate),
      ]),
      alignRight: [1, 2, 3],
      notes: [
        `${r.judge_errors?.length ?? 0} judge error(s), kept apart (not counted as ties)${
          r.judge_errors && r.judge_errors.length > 0
            ? `: ${r.judge_errors
                .slice(0, 3)
                .map((e) => `${e.a} vs ${e.b} on ${e.question_id}: ${e.message}`)
                .join("; ")}`
            : ""
        }`,
      ],
    });
  }
  const costed = r.contestants.filter((c) => c.cost !== undefined);
  if (costed.length > 0 || r.judge_cost) {
    sections.push({
      title: "Cost (USD; docs/cost.md)",
      headers: ["who", "prompt tokens", "completion tokens", "cost"],
      rows: [
        ...costed.map((c) => [
          `${c.name} (its run: bot and judges)`,
          String(c.cost?.prompt_tokens ?? 0),
          String(c.cost?.completion_tokens ?? 0),
          c.cost ? formatCost(c.cost) : "-",
        ]),
        ...(r.judge_cost
          ? [
              [
                "pairwise judge",
                String(r.judge_cost.total.prompt_tokens),
                String(r.judge_cost.total.completion_tokens),
                formatCost(r.judge_cost.total),
              ],
            ]
          : []),
      ],
      alignRight: [1, 2],
      notes: [],
    });
  }
  return sections;
}

function heading(report: ArenaReport): string {
  return `Arena "${report.name}" (${report.id}) · ${report.status} · judge ${report.results.judge} · ${report.results.questions} questions`;
}

export function renderArenaTable(report: ArenaReport): string {
  const out = [heading(report), ""];
  for (const section of arenaSections(report)) {
    out.push(
      section.title,
      renderTable(section.headers, section.rows, {
        alignRight: section.alignRight,
        maxCell: 40,
      }).trimEnd(),
    );
    for (const note of section.notes) out.push(note);
    out.push("");
  }
  return `${out.join("\n")}\n`;
}

function mdCell(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/\|/g, "\\|")
    .replace(/\r?\n/g, "<br>");
}

export function renderArenaMarkdown(report: ArenaReport): string {
  const out = [`# ${mdCell(heading(report))}`, ""];
  for (const section of arenaSections(report)) {
    out.push(`## ${mdCell(section.title)}`, "");
    out.push(`| ${section.headers.map((h) => mdCell(h) || " ").join(" | ")} |`);
    out.push(
      `|${section.headers.map((_, c) => (section.alignRight.includes(c) ? " ---: " : " --- ")).join("|")}|`,
    );
    for (const row of section.rows) out.push(`| ${row.map((c) => mdCell(c) || " ").join(" | ")} |`);
    out.push("");
    for (const note of section.notes) out.push(`${mdCell(note)}`, "");
  }
  return `${out.join("\n")}\n`;
}

/** The machine-readable arena: the row's id, name and status, and its stored results. */
export function renderArenaJson(report: ArenaReport): string {
  return `${JSON.stringify({ id: report.id, name: report.name, status: report.status, ...report.results }, null, 2)}\n`;
}
