import { fitBradleyTerry, percentileInterval, seededRandom } from "../arena/index.js";
import {
  type AlphaMetric,
  krippendorffAlpha,
  quadraticWeightedKappa,
} from "../calibration/index.js";
import { type Criterion, type CriterionScale, scoreRange } from "./rubric.js";

// Agreement between people on a queue (issue 28 §2): Krippendorff's α per criterion with a
// bootstrap interval over items, Cohen's κ for each pair of reviewers, and the items they disagree
// on most. Pure: labels in, figures out; the statistics are evals/calibration's.

export interface PersonLabel {
  item_id: string;
  position: number;
  reviewer_id: string;
  reviewer_name: string;
  criterion: string;
  score: number | null;
  passed: boolean | null;
  choice: "a" | "b" | "tie" | null;
}

export interface CriterionAgreement {
  criterion: string;
  scale: CriterionScale;
  metric: AlphaMetric;
  /** Items labelled by at least two reviewers (the ones α can use). */
  items: number;
  alpha: number | null;
  /** 95% percentile bootstrap interval over items; null with fewer than two such items. */
  alpha_ci: [number, number] | null;
  kappas: { a: string; b: string; n: number; agreement: number | null; kappa: number | null }[];
}

export interface ItemDisagreement {
  item_id: string;
  position: number;
  /** 0 (all agree) to 1 (as far apart as the scale allows), the largest over criteria. */
  spread: number;
  criterion: string;
}

/** Pairwise choices as ordered numbers: a, a tie, b. */
const CHOICE_VALUE = { a: 0, tie: 1, b: 2 } as const;

export function valueOf(label: Pick<PersonLabel, "score" | "passed" | "choice">): number | null {
  if (label.score !== null) return label.score;
  if (label.passed !== null) return label.passed ? 1 : 0;
  if (label.choice !== null) return CHOICE_VALUE[label.choice];
  return null;
}

/** Pass/fail is nominal; scores and a preference (A, tie, B) are ordered. */
export function metricOf(scale: CriterionScale): AlphaMetric {
  return scale === "pass_fail" ? "nominal" : "ordinal";
}

const BOOTSTRAP_SAMPLES = 1_000;
/**
 * Units × samples one interval may cost: α over 5,000 items 1,000 times took 1.1 s, so a large
 * queue draws fewer samples (never under 200) to answer its page in about half a second.
 */
const BOOTSTRAP_WORK = 2_000_000;

/** α over units resampled with replacement; the 2.5th and 97.5th percentiles. */
export function bootstrapAlpha(
  units: readonly (readonly (number | null)[])[],
  metric: AlphaMetric,
  options: { samples?: number; seed?: number } = {},
): [number, number] | null {
  const pairable = units.filter((unit) => unit.filter((v) => v !== null).length >= 2);
  if (pairable.length < 2) return null;
  const random = seededRandom(options.seed ?? 1);
  const samples =
    options.samples ??
    Math.max(200, Math.min(BOOTSTRAP_SAMPLES, Math.floor(BOOTSTRAP_WORK / pairable.length)));
  const alphas = new Float64Array(samples);
  const drawn = new Array<readonly (number | null)[]>(pairable.length);
  for (let s = 0; s < samples; s++) {
    for (let i = 0; i < pairable.length; i++) {
      drawn[i] = pairable[Math.floor(random() * pairable.length)] as readonly (number | null)[];
    }
    alphas[s] = krippendorffAlpha(drawn, metric) ?? Number.NaN;
  }
  const [low, high] = percentileInterval(alphas);
  return Number.isNaN(low) || Number.isNaN(high) ? null : [low, high];
}

/** α, its interval and the reviewers' pairwise κ for each criterion. */
export function peopleAgreement(
  criteria: readonly Criterion[],
  labels: readonly PersonLabel[],
): CriterionAgreement[] {
  return criteria.map((criterion) => {
    const mine = labels.filter((l) => l.criterion === criterion.name);
    const reviewers = [...new Map(mine.map((l) => [l.reviewer_id, l.reviewer_name]))].sort((x, y) =>
      x[1].localeCompare(y[1]),
    );
    const column = new Map(reviewers.map(([id], i) => [id, i]));
    const byItem = new Map<string, (number | null)[]>();
    for (const label of mine) {
      let unit = byItem.get(label.item_id);
      if (!unit) {
        unit = new Array<number | null>(reviewers.length).fill(null);
        byItem.set(label.item_id, unit);
      }
      unit[column.get(label.reviewer_id) as number] = valueOf(label);
    }
    const units = [...byItem.values()];
    const metric = metricOf(criterion.scale);
    const kappas: CriterionAgreement["kappas"] = [];
    for (let i = 0; i < reviewers.length; i++) {
      for (let j = i + 1; j < reviewers.length; j++) {
        const a: number[] = [];
        const b: number[] = [];
        for (const unit of units) {
          const x = unit[i];
          const y = unit[j];
          if (x !== null && x !== undefined && y !== null && y !== undefined) {
            a.push(x);
            b.push(y);
          }
        }
        const same = a.filter((x, k) => x === b[k]).length;
        kappas.push({
          a: (reviewers[i] as [string, string])[1],
          b: (reviewers[j] as [string, string])[1],
          n: a.length,
          agreement: a.length === 0 ? null : same / a.length,
          // Quadratic weights on two categories are plain Cohen's κ.
          kappa: quadraticWeightedKappa(a, b),
        });
      }
    }
    return {
      criterion: criterion.name,
      scale: criterion.scale,
      metric,
      items: units.filter((unit) => unit.filter((v) => v !== null).length >= 2).length,
      alpha: krippendorffAlpha(units, metric),
      alpha_ci: bootstrapAlpha(units, metric),
      kappas,
    };
  });
}

/** How far apart one item's values are on a criterion, from 0 to 1. */
function spreadOf(values: readonly number[], scale: CriterionScale): number {
  if (values.length < 2) return 0;
  const range = scoreRange(scale);
  if (range) return (Math.max(...values) - Math.min(...values)) / (range.max - range.min);
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  // Nominal: the share outside the largest group, scaled so an even split of two is 1.
  const largest = Math.max(...counts.values());
  return (values.length - largest) / Math.floor(values.length / 2);
}

/** The items reviewers disagree on most, the widest first. */
export function topDisagreements(
  criteria: readonly Criterion[],
  labels: readonly PersonLabel[],
  limit = 10,
): ItemDisagreement[] {
  const values = new Map<string, { position: number; byCriterion: Map<string, number[]> }>();
  for (const label of labels) {
    const value = valueOf(label);
    if (value === null) continue;
    let entry = values.get(label.item_id);
    if (!entry) {
      entry = { position: label.position, byCriterion: new Map() };
      values.set(label.item_id, entry);
    }
    const list = entry.byCriterion.get(label.criterion) ?? [];
    list.push(value);
    entry.byCriterion.set(label.criterion, list);
  }
  const rows: ItemDisagreement[] = [];
  for (const [item_id, entry] of values) {
    let best: { spread: number; criterion: string } | undefined;
    for (const criterion of criteria) {
      const spread = spreadOf(entry.byCriterion.get(criterion.name) ?? [], criterion.scale);
      if (spread > 0 && (!best || spread > best.spread))
        best = { spread, criterion: criterion.name };
    }
    if (best) rows.push({ item_id, position: entry.position, ...best });
  }
  rows.sort((x, y) => y.spread - x.spread || x.position - y.position);
  return rows.slice(0, limit);
}

/** People's preference on one item: the choice most reviewers made; a tie when none leads. */
export function majorityChoice(choices: readonly ("a" | "b" | "tie")[]): "a" | "b" | "tie" | null {
  if (choices.length === 0) return null;
  const counts = { a: 0, b: 0, tie: 0 };
  for (const c of choices) counts[c]++;
  const top = Math.max(counts.a, counts.b, counts.tie);
  const leaders = (["a", "b", "tie"] as const).filter((c) => counts[c] === top);
  return leaders.length === 1 ? (leaders[0] as "a" | "b" | "tie") : "tie";
}

/** For each pair of contestants: on how many items people's majority matched the judge. */
export function pairJudgeAgreement(
  items: readonly {
    a: string;
    b: string;
    judge: string | null;
    people: "a" | "b" | "tie" | null;
  }[],
): { a: string; b: string; items: number; agree: number; share: number | null }[] {
  const pairs = new Map<string, { a: string; b: string; items: number; agree: number }>();
  for (const item of items) {
    if (item.people === null || !(item.judge === "a" || item.judge === "b" || item.judge === "tie"))
      continue;
    const key = `${item.a}\n${item.b}`;
    const pair = pairs.get(key) ?? { a: item.a, b: item.b, items: 0, agree: 0 };
    pair.items++;
    if (item.people === item.judge) pair.agree++;
    pairs.set(key, pair);
  }
  return [...pairs.values()].map((p) => ({
    ...p,
    share: p.items === 0 ? null : p.agree / p.items,
  }));
}

export interface PeopleStanding {
  contestant: string;
  /** On the arena's readable scale (mean 1000, 400 points = 10:1 odds). */
  rating: number;
  wins: number;
  losses: number;
  ties: number;
}

/**
 * People as a judge of the arena: their majority on each item as one game, the contestants rated
 * by Bradley-Terry as the arena rates its judge's verdicts (ties half to each side), best first.
 */
export function peopleStandings(
  items: readonly { a: string; b: string; people: "a" | "b" | "tie" | null }[],
): PeopleStanding[] {
  const games = items.filter((item) => item.people !== null);
  const names = [...new Set(games.flatMap((game) => [game.a, game.b]))].sort();
  if (names.length < 2) return [];
  const index = new Map(names.map((name, i) => [name, i]));
  const wins = names.map(() => new Float64Array(names.length));
  const tally = names.map(() => ({ wins: 0, losses: 0, ties: 0 }));
  for (const game of games) {
    const a = index.get(game.a) as number;
    const b = index.get(game.b) as number;
    if (game.people === "tie") {
      (wins[a] as Float64Array)[b]! += 0.5;
      (wins[b] as Float64Array)[a]! += 0.5;
      tally[a]!.ties++;
      tally[b]!.ties++;
    } else {
      const [winner, loser] = game.people === "a" ? [a, b] : [b, a];
      (wins[winner] as Float64Array)[loser]! += 1;
      tally[winner]!.wins++;
      tally[loser]!.losses++;
    }
  }
  const fit = fitBradleyTerry(wins);
  return names
    .map((contestant, i) => ({ contestant, rating: fit.ratings[i] as number, ...tally[i]! }))
    .sort((x, y) => y.rating - x.rating || x.contestant.localeCompare(y.contestant));
}
