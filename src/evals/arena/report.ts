import { renderTable } from "../../formats/index.js";
import { formatCost } from "../../llm/index.js";
import type { MessageLanguage } from "../../text/index.js";
import { type ArenaWord, arenaWord } from "./report-words.js";
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

export function arenaSections(report: ArenaReport, lang: MessageLanguage = "en"): Section[] {
  const w = (word: ArenaWord, values?: Record<string, string | number>) =>
    arenaWord(lang, word, values);
  const r = report.results;
  const sections: Section[] = [];
  const scoreBased = r.judge !== "pairwise";
  sections.push({
    title: w("ratingsTitle", {
      questions: r.questions,
      rounds: r.bootstrap.rounds,
      seed: r.bootstrap.seed,
    }),
    headers: [
      w("rank"),
      w("contestant"),
      w("rating"),
      w("ci"),
      w("winRate"),
      w("wins"),
      w("ties"),
      w("losses"),
      w("lengthControlled"),
      w("meanLength"),
      scoreBased ? w("scored") : w("answered"),
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
        ? w("notDistinguishable", {
            pairs: r.not_distinguishable.map(([a, b]) => `${a} ~ ${b}`).join(", "),
          })
        : w("allDistinguishable"),
      `${w("lengthNote", {
        coefficient: signed(r.length_control.coefficient),
        ci: interval(r.length_control.ci, 3),
        n: r.length_control.comparisons,
      })}${
        r.length_control.ci[0] > 0
          ? w("favoursLonger")
          : r.length_control.ci[1] < 0
            ? w("favoursShorter")
            : w("noLengthPreference")
      }`,
      ...(r.bradley_terry.regularized ? [w("regularized")] : []),
    ],
  });
  sections.push({
    title: scoreBased
      ? w("pairsScoreTitle", { judge: r.judge, tolerance: r.tolerance ?? 0 })
      : w("pairsPairwiseTitle"),
    headers: [
      w("a"),
      w("b"),
      w("aWins"),
      w("tiesCount"),
      w("bWins"),
      w("notCompared"),
      scoreBased ? w("meanDifference") : w("netWins"),
      w("ci"),
      w("distinguishable"),
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
      p.distinguishable ? w("yes") : w("no"),
    ]),
    alignRight: [2, 3, 4, 5],
    notes: [],
  });
  const names = r.matrix.names;
  sections.push({
    title: w("matrixTitle"),
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
      title: w("radarTitle"),
      headers: [w("contestant"), w("accuracy"), w("completeness"), w("clarity")],
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
      title: w("pairwiseTitle"),
      headers: [w("judgeModel"), w("judgedBothWays"), w("flips"), w("flipRate")],
      rows: Object.entries(r.flip_rate).map(([model, f]) => [
        model,
        String(f.judged),
        String(f.flipped),
        pct(f.rate),
      ]),
      alignRight: [1, 2, 3],
      notes: [
        `${w("judgeErrors", { n: r.judge_errors?.length ?? 0 })}${
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
      title: w("costTitle"),
      headers: [w("who"), w("promptTokens"), w("completionTokens"), w("cost")],
      rows: [
        ...costed.map((c) => [
          w("contestantCost", { name: c.name }),
          String(c.cost?.prompt_tokens ?? 0),
          String(c.cost?.completion_tokens ?? 0),
          c.cost ? formatCost(c.cost) : "-",
        ]),
        ...(r.judge_cost
          ? [
              [
                w("pairwiseJudge"),
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

function heading(report: ArenaReport, lang: MessageLanguage): string {
  return arenaWord(lang, "heading", {
    name: report.name,
    id: report.id,
    status: report.status,
    judge: report.results.judge,
    questions: report.results.questions,
  });
}

/** The arena as a text table; its headings and labels in `lang` (`--lang zh`). */
export function renderArenaTable(report: ArenaReport, lang: MessageLanguage = "en"): string {
  const out = [heading(report, lang), ""];
  for (const section of arenaSections(report, lang)) {
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

export function renderArenaMarkdown(report: ArenaReport, lang: MessageLanguage = "en"): string {
  const out = [`# ${mdCell(heading(report, lang))}`, ""];
  for (const section of arenaSections(report, lang)) {
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
