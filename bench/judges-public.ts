// The offline judges on public data labelled by people (issue 26), beside the one-line baselines,
// with an honest split: the data is in bench/data/public (README there: where each set comes from,
// its licence and NOTICE).
//
// - Groundedness on BEGIN dev (google/BEGIN-dataset; Wizard of Wikipedia, CMU-DoG, Topical-Chat):
//   ROC AUC of the score against "Fully attributable" vs "Not fully attributable" (Generic left
//   out), leave one corpus out: the judge's settings are chosen on two corpora, then measured on
//   the third, all three ways. Baseline: token precision.
// - Correctness on EVOUNA TriviaQA (wangcunxiang/QA-Eval): agreement of the judge's pass/fail
//   with people's correct/incorrect, on questions split in two by a fixed seed (dev, held-out),
//   and whether the five systems are ranked as people rank them. Baseline: "contains a reference".
//
// Goals: groundedness AUC >= token precision + 0.015 on each held-out corpus; agreement >= 0.95
// on the held-out questions, systems ranked as people rank them.

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import {
  containedReference,
  type GroundednessComponents,
  offline,
  type ReferenceComponents,
  tokenPrecision,
} from "../src/judges/index.js";
import {
  type AgreementReport,
  agreementOf,
  type LabelledAnswer,
  rocAuc,
} from "../src/judges/offline/agreement.js";
import { seededRandom } from "../test/support/seeded-random.js";

const DATA = new URL("./data/public/", import.meta.url);

export const BEGIN_CORPORA = {
  wow: "begin-dev/wow/begin_dev_wow.tsv",
  "cmu-dog": "begin-dev/cmu-dog/begin_dev_cmu.tsv",
  topicalchat: "begin-dev/topicalchat/begin_dev_tc.tsv",
} as const;
export type BeginCorpus = keyof typeof BEGIN_CORPORA;

export interface BeginItem {
  knowledge: string;
  message: string;
  response: string;
  attributable: boolean;
}

/** A BEGIN TSV's labelled items, "Generic" left out (it is neither attributable nor not). */
export function readBegin(corpus: BeginCorpus): BeginItem[] {
  const lines = readFileSync(new URL(BEGIN_CORPORA[corpus], DATA), "utf8").split(/\r?\n/);
  const header = (lines[0] ?? "").split("\t").map((cell) => cell.trim());
  const at = (name: string) => {
    const index = header.indexOf(name);
    if (index < 0) throw new Error(`${BEGIN_CORPORA[corpus]}: no column ${name}`);
    return index;
  };
  const [knowledge, message, response, label] = [
    at("knowledge"),
    at("message"),
    at("response"),
    at("begin_label"),
  ];
  const items: BeginItem[] = [];
  lines.slice(1).forEach((line, i) => {
    if (line.trim() === "") return;
    const cells = line.split("\t");
    const verdict = (cells[label] ?? "").trim();
    if (verdict === "Generic") return;
    if (verdict !== "Fully attributable" && verdict !== "Not fully attributable") {
      throw new Error(`${BEGIN_CORPORA[corpus]} line ${i + 2}: begin_label "${verdict}"`);
    }
    items.push({
      knowledge: cells[knowledge] ?? "",
      message: cells[message] ?? "",
      response: cells[response] ?? "",
      attributable: verdict === "Fully attributable",
    });
  });
  return items;
}

export const EVOUNA_SYSTEMS = ["fid", "gpt35", "chatgpt", "gpt4", "newbing"] as const;

/** EVOUNA TQ's labelled answers: improper questions and empty or unlabelled answers left out. */
export function readEvouna(): LabelledAnswer[] {
  const rows = JSON.parse(readFileSync(new URL("evouna-tq/TQ.json", DATA), "utf8")) as Record<
    string,
    unknown
  >[];
  const items: LabelledAnswer[] = [];
  rows.forEach((row, index) => {
    if (row.improper === true) return;
    const references = String(row.golden_answer ?? "")
      .split("/")
      .map((reference) => reference.trim())
      .filter(Boolean);
    if (references.length === 0) return;
    for (const system of EVOUNA_SYSTEMS) {
      const answer = row[`answer_${system}`];
      const label = row[`judge_${system}`];
      if (typeof answer !== "string" || answer.trim() === "" || typeof label !== "boolean")
        continue;
      items.push({
        id: `q${index}:${system}`,
        lang: "en",
        question: String(row.question),
        ground_truths: references,
        system,
        answer,
        human_correct: label,
      });
    }
  });
  return items;
}

/** Seed of the question split; fixed, so dev and held-out never change between runs. */
export const SPLIT_SEED = 26;

/** Each question (all five of its answers) goes to dev or held-out, half each, by SPLIT_SEED. */
export function splitByQuestion(items: readonly LabelledAnswer[]): {
  dev: LabelledAnswer[];
  heldOut: LabelledAnswer[];
} {
  const questions = [...new Set(items.map((item) => item.id.split(":")[0] as string))];
  const random = seededRandom(SPLIT_SEED);
  // Fisher-Yates with the seeded generator.
  for (let i = questions.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [questions[i], questions[j]] = [questions[j] as string, questions[i] as string];
  }
  const dev = new Set(questions.slice(0, Math.floor(questions.length / 2)));
  return {
    dev: items.filter((item) => dev.has(item.id.split(":")[0] as string)),
    heldOut: items.filter((item) => !dev.has(item.id.split(":")[0] as string)),
  };
}

/** The groundedness judge's score on a BEGIN item; no score counts as 0 (nothing supported). */
function groundednessOf(item: BeginItem, components: GroundednessComponents = {}): number {
  return (
    offline(
      { question: item.message.trim() || "?", answer: item.response, contexts: [item.knowledge] },
      { groundedness: components },
    ).verdict.groundedness ?? 0
  );
}

function aucOf(items: readonly BeginItem[], score: (item: BeginItem) => number): number {
  return rocAuc(
    items.map(score),
    items.map((item) => item.attributable),
  );
}

/** The groundedness components the ablation switches off, one at a time. */
export const GROUNDEDNESS_COMPONENTS: Record<string, GroundednessComponents> = {
  "function words": { functionWords: false },
  "length scaling": { lengthScaling: false },
  "personal words": { personalWords: false },
  questions: { questions: false },
  "word pairs": { wordPairs: false },
  "number attachment": { numberAttachment: false },
};

/** The reference match's components the ablation switches off, one at a time. */
export const REFERENCE_COMPONENTS: Record<string, ReferenceComponents> = {
  "reference forms": { referenceForms: false },
  "joined words": { joinedWords: false },
  stems: { stems: false },
  "half coverage": { halfCoverage: false },
  "comma head": { commaHead: false },
  "plain quotes": { plainQuotes: false },
  spelling: { spelling: false },
};

export interface GroundednessRow {
  held_out: BeginCorpus;
  n: number;
  /** The settings chosen on the two other corpora: the ablation variant with the best margin there. */
  chosen_on_dev: string;
  dev_auc: number;
  dev_token_precision: number;
  held_out_auc: number;
  held_out_token_precision: number;
  margin: number;
  goal_met: boolean;
}

export interface AblationRow {
  judge: string;
  without: string;
  [column: string]: string | number;
}

export interface ReferenceRow {
  part: string;
  judge: string;
  n: number;
  agreement: number;
  kappa: number;
  false_fail: number;
  false_pass: number;
  ranked_as_people: boolean;
  judge_ranking: string;
}

export interface JudgesPublicBench {
  groundedness: GroundednessRow[];
  groundedness_ablation: AblationRow[];
  reference: ReferenceRow[];
  /** On dev only: components are kept or removed there, so held-out stays unseen. */
  reference_ablation: {
    without: string;
    dev_agreement: number;
    /** Dev answers whose pass / fail differs from the judge as shipped. */
    dev_changed: number;
    dev_ranked_as_people: boolean;
  }[];
  reference_systems: {
    part: string;
    system: string;
    n: number;
    human_pass_rate: number;
    judge_pass_rate: number;
    baseline_pass_rate: number;
  }[];
  human_ranking: Record<string, string>;
  split_seed: number;
  goals: {
    groundedness_met: boolean;
    reference_agreement_met: boolean;
    reference_ranking_met: boolean;
  };
}

function referenceRow(part: string, judge: string, report: AgreementReport): ReferenceRow {
  return {
    part,
    judge,
    n: report.n,
    agreement: report.agreement,
    kappa: report.kappa,
    false_fail: report.false_fail,
    false_pass: report.false_pass,
    ranked_as_people: report.ranked_as_people,
    judge_ranking: report.judge_ranking.join(" > "),
  };
}

export function benchJudgesPublic(): JudgesPublicBench {
  const corpora = Object.keys(BEGIN_CORPORA) as BeginCorpus[];
  const begin = Object.fromEntries(corpora.map((c) => [c, readBegin(c)])) as Record<
    BeginCorpus,
    BeginItem[]
  >;
  // Every variant's AUC on every corpus, computed once: the full judge and each ablation.
  const variants: Record<string, GroundednessComponents> = {
    "all components": {},
    ...Object.fromEntries(
      Object.entries(GROUNDEDNESS_COMPONENTS).map(([name, off]) => [`without ${name}`, off]),
    ),
  };
  const auc: Record<string, Record<BeginCorpus, number>> = {};
  for (const [name, components] of Object.entries(variants)) {
    auc[name] = Object.fromEntries(
      corpora.map((c) => [c, aucOf(begin[c], (item) => groundednessOf(item, components))]),
    ) as Record<BeginCorpus, number>;
  }
  const precision = Object.fromEntries(
    corpora.map((c) => [
      c,
      aucOf(begin[c], (item) => tokenPrecision(item.response, [item.knowledge]) ?? 0),
    ]),
  ) as Record<BeginCorpus, number>;

  const groundedness: GroundednessRow[] = corpora.map((heldOut) => {
    const dev = corpora.filter((c) => c !== heldOut);
    const pooled = (values: Record<BeginCorpus, number>) =>
      dev.reduce((sum, c) => sum + values[c] * begin[c].length, 0) /
      dev.reduce((sum, c) => sum + begin[c].length, 0);
    // Tune on dev only: the variant whose smallest margin over token precision there is largest.
    const margin = (name: string) =>
      Math.min(...dev.map((c) => (auc[name]?.[c] ?? 0) - precision[c]));
    const chosen = Object.keys(variants).reduce((best, name) =>
      margin(name) > margin(best) ? name : best,
    );
    const held = auc[chosen]?.[heldOut] ?? 0;
    return {
      held_out: heldOut,
      n: begin[heldOut].length,
      chosen_on_dev: chosen,
      dev_auc: pooled(auc[chosen] as Record<BeginCorpus, number>),
      dev_token_precision: pooled(precision),
      held_out_auc: held,
      held_out_token_precision: precision[heldOut],
      margin: held - precision[heldOut],
      goal_met: held - precision[heldOut] >= 0.015,
    };
  });
  const groundednessAblation: AblationRow[] = [
    {
      judge: "token_precision (baseline)",
      without: "-",
      ...Object.fromEntries(corpora.map((c) => [c, precision[c]])),
    },
    ...Object.entries(auc).map(([name, values]) => ({
      judge: "offline groundedness",
      without: name === "all components" ? "(nothing: the judge as shipped)" : name.slice(8),
      ...Object.fromEntries(corpora.map((c) => [c, values[c]])),
      ...Object.fromEntries(
        corpora.map((c) => [`${c} vs shipped`, values[c] - (auc["all components"]?.[c] ?? 0)]),
      ),
    })),
  ];

  const evouna = readEvouna();
  const parts = splitByQuestion(evouna);
  const reference: ReferenceRow[] = [];
  const referenceSystems: JudgesPublicBench["reference_systems"] = [];
  const humanRanking: Record<string, string> = {};
  for (const [part, items] of [
    ["dev", parts.dev],
    ["held-out", parts.heldOut],
  ] as const) {
    const judged = agreementOf(
      items,
      items.map(
        (item) =>
          offline({
            question: item.question,
            answer: item.answer,
            ground_truths: item.ground_truths,
          }).passed,
      ),
    );
    const baseline = agreementOf(
      items,
      items.map((item) => containedReference(item.answer, item.ground_truths) >= 0),
    );
    reference.push(
      referenceRow(part, "offline (reference verdict)", judged),
      referenceRow(part, "contains_reference (baseline)", baseline),
    );
    humanRanking[part] = judged.human_ranking.join(" > ");
    for (const s of judged.systems) {
      referenceSystems.push({
        part,
        ...s,
        baseline_pass_rate:
          baseline.systems.find((b) => b.system === s.system)?.judge_pass_rate ?? Number.NaN,
      });
    }
  }
  const passedBy = (components: ReferenceComponents) => (item: LabelledAnswer) =>
    offline(
      { question: item.question, answer: item.answer, ground_truths: item.ground_truths },
      { reference: components },
    ).passed;
  const shipped = parts.dev.map(passedBy({}));
  const referenceAblation = Object.entries({
    "(nothing: the judge as shipped)": {},
    ...REFERENCE_COMPONENTS,
  }).map(([name, components]) => {
    const passed = parts.dev.map(passedBy(components));
    const dev = agreementOf(parts.dev, passed);
    return {
      without: name,
      dev_agreement: dev.agreement,
      dev_changed: passed.filter((pass, index) => pass !== shipped[index]).length,
      dev_ranked_as_people: dev.ranked_as_people,
    };
  });
  const heldOut = reference.find((r) => r.part === "held-out" && r.judge.startsWith("offline"));
  return {
    groundedness,
    groundedness_ablation: groundednessAblation,
    reference,
    reference_ablation: referenceAblation,
    reference_systems: referenceSystems,
    human_ranking: humanRanking,
    split_seed: SPLIT_SEED,
    goals: {
      groundedness_met: groundedness.every((row) => row.goal_met),
      reference_agreement_met: (heldOut?.agreement ?? 0) >= 0.95,
      reference_ranking_met: heldOut?.ranked_as_people ?? false,
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(benchJudgesPublic(), null, 2));
}
