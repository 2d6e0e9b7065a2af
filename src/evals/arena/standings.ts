import {
  BOOTSTRAP_DEFAULTS,
  bootstrapRatings,
  percentileInterval,
  weightedMeanDifference,
} from "./bootstrap.js";
import { fitBradleyTerry } from "./bradley-terry.js";
import { fitLengthRows, lengthControlledRatings, lengthRows } from "./length-control.js";
import { halfTieWins, type PairOutcomes, type Tally, tallyOutcomes, winRate } from "./outcomes.js";

// The arena's numbers from per-question outcomes (issue 14 §2): the win/tie/loss matrix, win
// rates, Bradley-Terry ratings with bootstrap intervals, which pairs the set cannot tell apart,
// the paired score differences (score-based comparisons) and the length-controlled fit.

export interface StandingsInput {
  names: readonly string[];
  pairs: readonly PairOutcomes[];
  /** Per contestant, per question: the answer's length in characters (NaN = no answer). */
  lengths: readonly Float64Array[];
  /** Per contestant, per question: its judge score (score-based comparisons only). */
  scores?: readonly Float64Array[];
  rounds?: number;
  seed?: number;
}

export interface ContestantStanding {
  name: string;
  rank: number;
  rating: number;
  ci: [number, number];
  win_rate: number | null;
  wins: number;
  ties: number;
  losses: number;
  length_controlled: { rating: number; ci: [number, number] };
  mean_length: number | null;
}

export interface PairStanding {
  a: string;
  b: string;
  wins: number;
  ties: number;
  losses: number;
  /** Questions neither side could be compared on (an error or missing answer). */
  missing: number;
  /** Score-based only: mean of a's score minus b's, with its paired bootstrap interval. */
  mean_difference?: number | null;
  difference_ci?: [number, number] | null;
  /** False when the two rating intervals overlap: "not distinguishable on this set". */
  distinguishable: boolean;
}

export interface Standings {
  contestants: ContestantStanding[];
  /** cells[i][j]: i's wins, ties and losses against j (names in input order); null on the diagonal. */
  matrix: { names: string[]; cells: (Tally | null)[][] };
  pairs: PairStanding[];
  not_distinguishable: [string, string][];
  length_control: {
    coefficient: number;
    ci: [number, number];
    comparisons: number;
    converged: boolean;
  };
  bradley_terry: { regularized: boolean; iterations: number };
  bootstrap: { rounds: number; seed: number };
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function mean(values: Float64Array): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    sum += v;
    n++;
  }
  return n === 0 ? null : sum / n;
}

export function computeStandings(input: StandingsInput): Standings {
  const { names, pairs, lengths, scores } = input;
  const rounds = input.rounds ?? BOOTSTRAP_DEFAULTS.rounds;
  const seed = input.seed ?? BOOTSTRAP_DEFAULTS.seed;
  if (rounds < BOOTSTRAP_DEFAULTS.minRounds) {
    throw new RangeError(
      `at least ${BOOTSTRAP_DEFAULTS.minRounds} bootstrap rounds (got ${rounds})`,
    );
  }
  const count = names.length;
  const questions = pairs[0]?.outcomes.length ?? 0;
  const tallies = pairs.map(({ a, b, outcomes }) => ({ a, b, tally: tallyOutcomes(outcomes) }));
  const fit = fitBradleyTerry(halfTieWins(count, tallies));
  const rows = lengthRows(count, pairs, lengths);
  const lengthFit = fitLengthRows(rows);
  const lengthRatings = lengthControlledRatings(lengthFit.theta, count);
  const draws = bootstrapRatings({
    count,
    questions,
    pairs,
    rounds,
    seed,
    length: { rows, theta: lengthFit.theta },
    ...(scores ? { scores } : {}),
  });
  const cis = draws.ratings.map((r) => percentileInterval(r));
  const lengthCis = draws.lengthRatings!.map((r) => percentileInterval(r));
  const coefficientCi = percentileInterval(draws.lengthCoefficients!);
  const coefficient = lengthFit.theta[count - 1]!;

  const cells: (Tally | null)[][] = names.map((_, i) =>
    names.map((__, j) => (i === j ? null : { wins: 0, ties: 0, losses: 0 })),
  );
  for (const { a, b, tally } of tallies) {
    cells[a]![b] = tally;
    cells[b]![a] = { wins: tally.losses, ties: tally.ties, losses: tally.wins };
  }
  const totals = cells.map((row) =>
    row.reduce<Tally>(
      (sum, cell) =>
        cell
          ? {
              wins: sum.wins + cell.wins,
              ties: sum.ties + cell.ties,
              losses: sum.losses + cell.losses,
            }
          : sum,
      { wins: 0, ties: 0, losses: 0 },
    ),
  );
  const overlap = (i: number, j: number) => {
    const [li, hi] = cis[i]!;
    const [lj, hj] = cis[j]!;
    return li <= hj && lj <= hi;
  };
  const order = names.map((_, i) => i).sort((i, j) => fit.ratings[j]! - fit.ratings[i]!);
  const contestants = order.map((i, position): ContestantStanding => ({
    name: names[i]!,
    rank: position + 1,
    rating: round(fit.ratings[i]!),
    ci: [round(cis[i]![0]), round(cis[i]![1])],
    win_rate: winRate(totals[i]!) === null ? null : round(winRate(totals[i]!)!, 4),
    ...totals[i]!,
    length_controlled: {
      rating: round(lengthRatings[i]!),
      ci: [round(lengthCis[i]![0]), round(lengthCis[i]![1])],
    },
    mean_length: mean(lengths[i]!) === null ? null : round(mean(lengths[i]!)!),
  }));
  const pairStandings = tallies.map(({ a, b, tally }, p): PairStanding => {
    const standing: PairStanding = {
      a: names[a]!,
      b: names[b]!,
      ...tally,
      missing: questions - tally.wins - tally.ties - tally.losses,
      distinguishable: !overlap(a, b),
    };
    if (scores) {
      const difference = weightedMeanDifference(scores[a]!, scores[b]!);
      const ci = percentileInterval(draws.differences![p]!);
      standing.mean_difference = Number.isNaN(difference) ? null : round(difference, 4);
      standing.difference_ci = Number.isNaN(ci[0]) ? null : [round(ci[0], 4), round(ci[1], 4)];
    }
    return standing;
  });
  return {
    contestants,
    matrix: { names: [...names], cells },
    pairs: pairStandings,
    not_distinguishable: pairStandings
      .filter((p) => !p.distinguishable)
      .map((p): [string, string] => [p.a, p.b]),
    length_control: {
      coefficient: round(coefficient, 4),
      ci: [round(coefficientCi[0], 4), round(coefficientCi[1], 4)],
      comparisons: rows.comparisons,
      converged: lengthFit.converged,
    },
    bradley_terry: { regularized: fit.regularized, iterations: fit.iterations },
    bootstrap: { rounds, seed },
  };
}
