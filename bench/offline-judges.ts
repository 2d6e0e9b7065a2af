// The offline judges against people: agreement with hand-labelled answers (development and
// held-out test sets in src/judges/offline/fixtures, README there), whether the judge ranks five
// answering systems as people do, the ROC AUC of groundedness on a labelled attribution set, and
// judged answers per second. Goals (issue 14): agreement >= 0.9 and the systems ranked as people
// rank them; groundedness AUC >= 0.95 on the held-out set.

import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { containedReference, offline, tokenPrecision } from "../src/judges/index.js";
import {
  type AgreementReport,
  agreementOf,
  type LabelledAnswer,
  LabelledAnswerSchema,
  LabelledAttributionSchema,
  readLabelled,
  rocAuc,
} from "../src/judges/offline/agreement.js";

const FIXTURES = new URL("../src/judges/offline/fixtures/", import.meta.url);
const SPLITS = ["dev", "test"] as const;

/**
 * The offline judge before this work (commit fc69178), on the same files, recorded once: it took
 * one ground truth, so an answer counted as passed when it passed against any reference. Kept as
 * figures, not code: the old judge is gone.
 */
export const BEFORE = {
  commit: "fc69178",
  agreement: { dev: 0.677, test: 0.683 },
  ranking_tau: { dev: 0.316, test: 0.316 },
  groundedness_auc: { dev: 0.714, test: 0.764 },
};

/**
 * Groundedness before number attachment and the weakest-sentence bound (commit 598f8ae: tokens
 * plus window-anchored numbers), on the same files, recorded once.
 */
export const BEFORE_ATTACHMENT = {
  commit: "598f8ae",
  groundedness_auc: { dev: 0.857, test: 0.961 },
};

/** The baseline the issue quotes: the answer contains a reference after SQuAD normalization. */
function containsReference(item: LabelledAnswer): boolean {
  return containedReference(item.answer, item.ground_truths) >= 0;
}

function judgeAnswer(item: LabelledAnswer) {
  return offline({
    question: item.question,
    answer: item.answer,
    ground_truths: item.ground_truths,
  });
}

export interface AgreementRow {
  set: string;
  judge: string;
  n: number;
  agreement: number;
  kappa: number;
  false_fail: number;
  false_pass: number;
  ranking_tau: number;
  ranked_as_people: boolean;
  judge_ranking: string;
}

function row(set: string, judge: string, report: AgreementReport): AgreementRow {
  return {
    set,
    judge,
    n: report.n,
    agreement: report.agreement,
    kappa: report.kappa,
    false_fail: report.false_fail,
    false_pass: report.false_pass,
    ranking_tau: report.ranking_tau,
    ranked_as_people: report.ranked_as_people,
    judge_ranking: report.judge_ranking.join(" > "),
  };
}

const contentOf = (item: string | { content: string }) =>
  typeof item === "string" ? item : item.content;

export interface OfflineJudgesBench {
  agreement: AgreementRow[];
  systems: {
    set: string;
    system: string;
    n: number;
    human_pass_rate: number;
    judge_pass_rate: number;
  }[];
  human_ranking: Record<string, string>;
  attribution: {
    set: string;
    n: number;
    groundedness_auc: number;
    token_precision_auc: number;
    /** Before number attachment (BEFORE_ATTACHMENT), and before this judge (BEFORE). */
    before_attachment_auc: number;
    before_auc: number;
    /** Of the labelled answers with a figure the judge finds swapped or unstated, how many people
     * found unsupported (the check's precision on this set). */
    misattached: string;
  }[];
  throughput: {
    workload: string;
    answers: number;
    seconds: number;
    answers_per_second: number;
    us_per_answer: number;
    /** Process CPU per answer: less at the mercy of other work on the machine than wall time. */
    cpu_us_per_answer: number;
    load_average: number;
  }[];
  before: typeof BEFORE;
  goals: { agreement_met: boolean; ranking_met: boolean; groundedness_met: boolean };
}

/** Judges `items` repeatedly for at least `minSeconds`; answers per second. */
function throughput(workload: string, judge: () => void, perRound: number, minSeconds = 1.5) {
  // Warm up (regexes, ICU segmenters, the JIT): a single call left the first second of a slow
  // workload mostly unoptimized code and compiler threads, whose CPU counts as the process's.
  const warm = performance.now();
  do judge();
  while (performance.now() - warm < 500);
  let answers = 0;
  const load = loadavg()[0] ?? 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  let elapsed = 0;
  do {
    judge();
    answers += perRound;
    elapsed = (performance.now() - start) / 1000;
  } while (elapsed < minSeconds);
  const used = process.cpuUsage(cpu);
  return {
    workload,
    answers,
    seconds: elapsed,
    answers_per_second: answers / elapsed,
    us_per_answer: (elapsed * 1e6) / answers,
    cpu_us_per_answer: (used.user + used.system) / answers,
    load_average: load,
  };
}

export function benchOfflineJudges(): OfflineJudgesBench {
  const agreement: AgreementRow[] = [];
  const systems: OfflineJudgesBench["systems"] = [];
  const humanRanking: Record<string, string> = {};
  const attribution: OfflineJudgesBench["attribution"] = [];
  const sets: Record<string, LabelledAnswer[]> = {};
  for (const split of SPLITS) {
    const items = readLabelled(new URL(`agreement-${split}.jsonl`, FIXTURES), LabelledAnswerSchema);
    sets[split] = items;
    const judged = agreementOf(
      items,
      items.map((item) => judgeAnswer(item).passed),
    );
    agreement.push(
      row(split, "offline judge", judged),
      row(
        split,
        "contains a reference (SQuAD-normalized)",
        agreementOf(items, items.map(containsReference)),
      ),
    );
    agreement.push({
      set: split,
      judge: `offline judge before (${BEFORE.commit}, recorded)`,
      n: items.length,
      agreement: BEFORE.agreement[split],
      kappa: Number.NaN,
      false_fail: Number.NaN,
      false_pass: Number.NaN,
      ranking_tau: BEFORE.ranking_tau[split],
      ranked_as_people: false,
      judge_ranking: "extractive > cautious > terse > chat > confabulating",
    });
    humanRanking[split] = judged.human_ranking.join(" > ");
    for (const s of judged.systems) systems.push({ set: split, ...s });

    const labelled = readLabelled(
      new URL(`attribution-${split}.jsonl`, FIXTURES),
      LabelledAttributionSchema,
    );
    const labels = labelled.map((item) => item.human_supported);
    const verdicts = labelled.map(
      (item) => offline({ question: "?", answer: item.answer, contexts: item.contexts }).verdict,
    );
    const grounded = verdicts.map((verdict) => verdict.groundedness ?? 0);
    const flagged = labelled.filter((_, i) =>
      verdicts[i]?.details.attached_numbers.some((n) => n.verdict !== "attached"),
    );
    const precision = labelled.map(
      (item) => tokenPrecision(item.answer, item.contexts.map(contentOf)) ?? 0,
    );
    attribution.push({
      set: split,
      n: labelled.length,
      groundedness_auc: rocAuc(grounded, labels),
      token_precision_auc: rocAuc(precision, labels),
      before_attachment_auc: BEFORE_ATTACHMENT.groundedness_auc[split],
      before_auc: BEFORE.groundedness_auc[split],
      misattached: `${flagged.filter((item) => !item.human_supported).length} of ${flagged.length} unsupported`,
    });
  }

  const all = [...(sets.dev ?? []), ...(sets.test ?? [])];
  const attributionItems = SPLITS.flatMap((split) =>
    readLabelled(new URL(`attribution-${split}.jsonl`, FIXTURES), LabelledAttributionSchema),
  );
  // A RAG-sized item: an answer full of figures against 5 retrieved chunks of 500 characters.
  const chunk = (i: number) =>
    `Chunk ${i}. The Lanting Metro opened its Line 1 on 18 September 2009. Line 1 runs 22.6 km from Gull Point to Eastfield with 19 stations, most of them underground. Line 2 followed in 2015 with 14 stations over 16.8 km, crossing Line 1 at Old Quay interchange. In 2023 the two lines carried 438,000 passengers a day.`.slice(
      0,
      500,
    );
  const rag = {
    question: "When did Line 1 of the Lanting Metro open, and how long is it?",
    // Eight different sentences, about 620 characters, each with figures to anchor.
    answer: [
      "Line 1 of the Lanting Metro opened on 18 September 2009 [1].",
      "It runs 22.6 km from Gull Point to Eastfield with 19 stations, most of them underground [2].",
      "Line 2 followed in 2015 with 14 stations over 16.8 km.",
      "The two lines carried 438,000 passengers a day in 2023, about 31% of all trips.",
      "The Jade River Bridge opened in 1962 and is 1,340 metres long.",
      "The Saltgate Tunnel opened in 1997 and carries 61,000 vehicles a day.",
      "The Gull Island ferry leaves every 20 minutes and the crossing takes 35 minutes.",
      "The airport handled 11.3 million passengers in 2023.",
    ].join(" "),
    contexts: Array.from({ length: 5 }, (_, i) => chunk(i + 1)),
    ground_truths: [
      "18 September 2009; 22.6 km",
      "It opened on 18 September 2009 and is 22.6 km long.",
    ],
  };
  const rows = [
    throughput(
      "agreement sets (question + answer + references)",
      () => {
        for (const item of all) judgeAnswer(item);
      },
      all.length,
    ),
    throughput(
      "attribution sets (answer + 1-2 context paragraphs)",
      () => {
        for (const item of attributionItems)
          offline({ question: "?", answer: item.answer, contexts: item.contexts });
      },
      attributionItems.length,
    ),
    throughput(
      "RAG-sized (620-char answer of 8 sentences with figures, 5 x 500-char contexts, 2 references)",
      () => {
        offline(rag);
      },
      1,
    ),
  ];
  const test = agreement.find((r) => r.set === "test" && r.judge === "offline judge");
  return {
    agreement,
    systems,
    human_ranking: humanRanking,
    attribution,
    throughput: rows,
    before: BEFORE,
    goals: {
      agreement_met: (test?.agreement ?? 0) >= 0.9,
      ranking_met: test?.ranked_as_people ?? false,
      groundedness_met: (attribution.find((a) => a.set === "test")?.groundedness_auc ?? 0) >= 0.95,
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(benchOfflineJudges(), null, 2));
}
