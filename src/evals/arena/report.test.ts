import { describe, expect, it } from "vitest";
import { renderArenaHtml } from "./html.js";
import { TIE, WIN, LOSS } from "./outcomes.js";
import {
  type ArenaReport,
  renderArenaJson,
  renderArenaMarkdown,
  renderArenaTable,
} from "./report.js";
import { ARENA_WORDS, arenaTemplate } from "./report-words.js";
import { computeStandings } from "./standings.js";

function report(): ArenaReport {
  const standings = computeStandings({
    names: ["ours", "theirs <b>"],
    pairs: [{ a: 0, b: 1, outcomes: Int8Array.from([WIN, WIN, TIE, LOSS, WIN, WIN]) }],
    lengths: [Float64Array.from([5, 6, 7, 8, 9, 10]), Float64Array.from([50, 60, 70, 80, 90, 100])],
    rounds: 200,
  });
  return {
    id: "a1",
    name: "demo | arena",
    status: "COMPLETED",
    results: {
      ...standings,
      judge: "pairwise",
      questions: 6,
      tolerance: null,
      contestants: standings.contestants.map((c) => ({
        ...c,
        evaluation_id: `e-${c.name}`,
        answered: 6,
        scored: 6,
        radar: { accuracy: 8, completeness: null, clarity: 6.5 },
      })),
      flip_rate: { "judge-model": { judged: 6, flipped: 1, rate: 1 / 6 } },
      judge_errors: [],
      examples: [],
    },
  };
}

describe("arena reports", () => {
  it("tables the ratings, pairs, matrix, radar and the judge's flip rate", () => {
    const text = renderArenaTable(report());
    expect(text).toMatch(/1\s+ours\s+\d+\.\d\s+\[[\d.]+, [\d.]+\]\s+75\.0%\s+4\s+1\s+1/);
    expect(text).toContain(
      "Not distinguishable on this set (the 95% interval of their paired difference contains 0): ours ~ theirs <b>",
    );
    expect(text).toMatch(/ours\s+·\s+4-1-1/);
    expect(text).toMatch(/judge-model\s+6\s+1\s+16\.7%/);
    expect(text).toContain("0 judge error(s), kept apart");
  });

  it("words the table's and Markdown's headings and labels in Chinese with lang zh", () => {
    const text = renderArenaTable(report(), "zh");
    expect(text).toContain("竞技场“demo | arena”（a1）· COMPLETED · 评判 pairwise · 6 个问题");
    expect(text).toMatch(/排名\s+参赛者\s+评分\s+95% 置信区间\s+胜率/);
    expect(text).toMatch(/1\s+ours\s+\d+\.\d\s+\[[\d.]+, [\d.]+\]\s+75\.0%\s+4\s+1\s+1/);
    expect(text).toContain("在该问题集上无法区分（其配对差的 95% 区间包含 0）：ours ~ theirs <b>");
    expect(text).toContain("胜负矩阵（行对列：胜-平-负）");
    expect(text).toMatch(/judge-model\s+6\s+1\s+16\.7%/);
    expect(text).toContain("0 个评判错误，单独列出（不算平局）");
    for (const english of ["Ratings", "contestant", "Win matrix", "distinguishable", "flip rate"])
      expect(text).not.toContain(english);
    expect(renderArenaMarkdown(report(), "zh")).toContain("## 胜负矩阵");
  });

  it("has every report word in both languages with the same placeholders", () => {
    const placeholders = (t: string) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const word of ARENA_WORDS) {
      expect(placeholders(arenaTemplate("zh", word)), word).toEqual(
        placeholders(arenaTemplate("en", word)),
      );
    }
  });

  it("escapes names in Markdown and HTML", () => {
    expect(renderArenaMarkdown(report())).toContain("demo \\| arena");
    const html = renderArenaHtml(report());
    expect(html).toContain("theirs &lt;b&gt;");
    expect(html).not.toContain("theirs <b>");
  });

  it("writes the JSON the issue asks for: name, rating, ci, win_rate and counts, and the matrix", () => {
    const json = JSON.parse(renderArenaJson(report())) as {
      contestants: Record<string, unknown>[];
      matrix: { names: string[]; cells: unknown[][] };
    };
    expect(Object.keys(json.contestants[0]!)).toEqual(
      expect.arrayContaining(["name", "rating", "ci", "win_rate", "wins", "ties", "losses"]),
    );
    expect(json.matrix.cells[0]![1]).toEqual({ wins: 4, ties: 1, losses: 1 });
  });
});
