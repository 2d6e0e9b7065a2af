import { createReadStream } from "node:fs";
import { parseArgs } from "node:util";
import { isLlmConfigured, loadConfig } from "../../config/index.js";
import { type JsonlLine, parseJsonl } from "../../formats/index.js";
import {
  type JudgeKind,
  type JudgeLine,
  type JudgeOutcome,
  type ClaimsSummary,
  claimReportRows,
  claimsSummary,
  judgeLine,
  judgeLineSchemaFor,
  LLM_JUDGES,
  summarizeJudgeResults,
} from "../../judges/index.js";
import { createLlmClient, errorText, type LlmClient, resolveModelConfig } from "../../llm/index.js";
import { reportWord } from "../../evals/reports/index.js";
import { llmResponseCache } from "../../store/index.js";
import { LANG_OPTION, languageOption } from "../lang-option.js";
import { resultsInLanguage } from "../worded-verdicts.js";
import { mapOrdered } from "../ordered-pool.js";
import { renderTable } from "../../formats/index.js";
import { openStoreSession } from "../store-session.js";
import { parseJudgeKinds } from "../judge-kinds.js";
import { EXIT } from "../exit-codes.js";
import { UsageError } from "../usage-error.js";

export const JUDGE_HELP = `Usage: ragjudge judge FILE.jsonl --judge review|rubric|reference|offline|claims|...[,...] [options]

Judges each line {question, answer, contexts?, ground_truth?, ground_truths?} (several acceptable
references: reference judges score against the best match). review, rubric, reference and claims
call the configured judge LLM (ragjudge.config.json, OPENAI_BASE_URL, RAGJUDGE_JUDGE_*); offline,
claims_offline, token_precision and contains_reference need none. claims and claims_offline print
RAGChecker's claim-level metrics (claims_offline approximates them: sentences as claims).

Options:
  --judge LIST            judges to run, comma-separated (default: offline)
  --format table|json|jsonl  output (default: table, with a summary per judge)
  --concurrency N         lines judged at once (default: 16)
  --config FILE.json      configuration file (default: ./ragjudge.config.json if present)
  --no-cache              neither read nor write the LLM response cache
  --lang en|zh            the words of the table and its summary, and of the verdicts' reasons,
                          suggestions, analyses and limits in json and jsonl (default: en)
  -h, --help              show this help

Exit code: 0 done, 2 for invalid lines or usage errors, 3 when nothing could be judged (every
result a judge_error: a provider outage, a wrong key). A judge_error has no score; the summary
counts them, and "LLM calls" counts logical calls and HTTP requests apart.`;

const FORMATS = ["table", "json", "jsonl"] as const;
type LineResult =
  | { line: number; ok: true; id?: string; results: Partial<Record<JudgeKind, JudgeOutcome>> }
  | { line: number; ok: false; error: string };

function cell(outcome: JudgeOutcome | undefined): string {
  if (!outcome) return "-";
  if (outcome.outcome === "judge_error") return "judge_error";
  return `${outcome.raw_score} ${outcome.passed ? "pass" : "fail"}`;
}

export async function judgeCommand(
  argv: string[],
  out: NodeJS.WritableStream = process.stdout,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      judge: { type: "string", default: "offline" },
      format: { type: "string", default: "table" },
      concurrency: { type: "string", default: "16" },
      config: { type: "string" },
      "no-cache": { type: "boolean", default: false },
      lang: LANG_OPTION,
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    out.write(`${JUDGE_HELP}\n`);
    return 0;
  }
  const format = values.format as (typeof FORMATS)[number];
  if (!FORMATS.includes(format))
    throw new UsageError(`--format must be one of ${FORMATS.join(", ")}`);
  const lang = languageOption(values.lang);
  const word = (w: Parameters<typeof reportWord>[1], v?: Record<string, string | number>) =>
    reportWord(lang, w, v);
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1024) {
    throw new UsageError("--concurrency must be an integer from 1 to 1024");
  }
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError("judge takes exactly one FILE.jsonl (or -)");
  const kinds = parseJudgeKinds(values.judge);
  const config = await loadConfig(values.config ? { path: values.config } : {});
  const needsLlm = kinds.some((kind) => LLM_JUDGES.includes(kind));
  if (needsLlm && !isLlmConfigured(config.llm, "judge")) {
    throw new UsageError(
      `--judge ${values.judge} needs an LLM: set OPENAI_BASE_URL (and OPENAI_API_KEY if the server wants one), ` +
        "or RAGJUDGE_JUDGE_BASE_URL, or an llm section in ragjudge.config.json; or use --judge offline",
    );
  }

  const session = needsLlm && !values["no-cache"] ? await openStoreSession() : undefined;
  let client: LlmClient | undefined;
  const lines: LineResult[] = [];
  try {
    client = needsLlm
      ? createLlmClient(
          resolveModelConfig(config.llm, "judge"),
          session ? { cache: llmResponseCache(session.store.db, session.actor.workspaceId) } : {},
        )
      : undefined;
    const source = file === "-" ? process.stdin : createReadStream(file);
    const work = async (parsed: JsonlLine<JudgeLine>): Promise<LineResult> => {
      if (!parsed.ok) return parsed;
      try {
        const results = await judgeLine(parsed.value, kinds, {
          config: config.judges,
          noCache: values["no-cache"],
          ...(client ? { client } : {}),
        });
        return {
          line: parsed.line,
          ok: true,
          ...(parsed.value.id ? { id: parsed.value.id } : {}),
          // --lang zh: the verdicts' sentences (the offline judge's reason…) in Chinese too.
          results: resultsInLanguage(results, lang),
        };
      } catch (error) {
        return { line: parsed.line, ok: false, error: errorText(error) };
      }
    };
    for await (const result of mapOrdered(
      parseJsonl(source, judgeLineSchemaFor(kinds)),
      concurrency,
      work,
    )) {
      if (format === "jsonl") out.write(`${JSON.stringify(result)}\n`);
      if (format === "table") {
        if (!result.ok) process.stderr.write(`line ${result.line}: ${result.error}\n`);
        // The table says judge_error; the person reads why here (json and jsonl carry it).
        for (const [kind, outcome] of Object.entries(result.ok ? result.results : {})) {
          if (outcome?.outcome === "judge_error") {
            process.stderr.write(
              `line ${result.line}: ${kind}: judge_error: ${outcome.error.message}\n`,
            );
          }
        }
      }
      lines.push(result);
    }
  } finally {
    await session?.close();
  }

  const judged = lines.filter((line): line is Extract<LineResult, { ok: true }> => line.ok);
  const resultsOf = (kind: JudgeKind) =>
    judged.map((line) => line.results[kind]).filter((r) => r !== undefined);
  // The claims judges' RAGChecker report, beside their ordinary summary.
  const claimSummaries = new Map<JudgeKind, ClaimsSummary>(
    kinds
      .filter((kind) => kind === "claims" || kind === "claims_offline")
      .map((kind) => [kind, claimsSummary(resultsOf(kind).map((r) => r.verdict))]),
  );
  const summary = Object.fromEntries(
    kinds.map((kind) => {
      const claims = claimSummaries.get(kind);
      const judgeSummary = summarizeJudgeResults(resultsOf(kind));
      if (!claims) return [kind, judgeSummary];
      return [
        kind,
        { ...judgeSummary, claim_metrics: claims.report, approximate: claims.approximate },
      ];
    }),
  );
  const usage = client?.usage();
  if (format === "table") {
    const rows = lines.map((line) =>
      line.ok
        ? [line.line, line.id ?? "-", ...kinds.map((kind) => cell(line.results[kind]))]
        : [line.line, "-", ...kinds.map(() => word("invalid"))],
    );
    out.write(
      `${renderTable([word("line"), word("id"), ...kinds], rows, { alignRight: [0] })}\n\n`,
    );
    const fmt = (value: number | null, digits = 3) =>
      value === null ? "-" : value.toFixed(digits);
    const summaryRows = kinds.map((kind) => {
      const s = summary[kind];
      return s
        ? [
            kind,
            s.total,
            s.counted,
            s.judge_errors,
            fmt(s.mean_raw_score, 2),
            fmt(s.mean_score),
            s.pass_rate === null ? "-" : `${(100 * s.pass_rate).toFixed(1)}%`,
          ]
        : [kind, 0, 0, 0, "-", "-", "-"];
    });
    out.write(
      `${renderTable(
        [
          word("judge"),
          word("lines"),
          word("counted"),
          word("judgeErrors"),
          word("meanRaw"),
          word("meanScore"),
          word("passRate"),
        ],
        summaryRows,
        { alignRight: [1, 2, 3, 4, 5, 6] },
      )}\n`,
    );
    out.write(`${word("judgeFooter")}\n`);
    for (const [kind, claims] of claimSummaries) {
      if (!claims.report) continue;
      out.write(
        `\nClaim-level metrics of ${kind}, as RAGChecker computes them ` +
          `(mean % over ${claims.count} answer(s))` +
          `${claims.approximate ? `; ${claims.approximate}` : ""}:\n`,
      );
      const rows = claimReportRows(claims.report);
      out.write(
        `${renderTable(
          ["part", "metric", "%"],
          rows.map(([group, metric, value]) => [group, metric, value.toFixed(1)]),
          { alignRight: [2] },
        )}\n`,
      );
    }
    if (usage) {
      // A logical call is one the judge made; each may take several HTTP requests (retries).
      const figures = {
        calls: usage.calls,
        cached: usage.cached_calls,
        failed: usage.failed_calls,
        attempts: usage.attempts,
        tokens: usage.total_tokens,
      };
      out.write(`${word("llmCalls", figures)}\n`);
    }
  } else if (format === "json") {
    out.write(`${JSON.stringify({ summary, usage: usage ?? null, results: lines }, null, 2)}\n`);
  }
  const errors = Object.values(summary).reduce((n, s) => n + s.judge_errors, 0);
  const counted = Object.values(summary).reduce((n, s) => n + s.counted, 0);
  if (errors > 0 && counted === 0) {
    process.stderr.write(
      `ragjudge judge: nothing could be judged: ${errors} judge error(s), ${judged.length} line(s)\n`,
    );
    return EXIT.incomplete;
  }
  return lines.some((line) => !line.ok) ? EXIT.usage : EXIT.done;
}
