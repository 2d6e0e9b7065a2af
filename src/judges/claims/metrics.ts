// RAGChecker's claim-level metrics (amazon-science/RAGChecker, ragchecker/computation.py and the
// aggregation in evaluator.py), computed from claims' entailment verdicts exactly as the reference
// does, so the same verdicts give the same numbers to the last bit (metrics.parity.test.ts).
//
// Four verdict sets, in RAGChecker's names ("X2Y" = X checked as evidence for Y's claims):
//   answer2response[i]        is response claim i entailed by the ground-truth answer?
//   response2answer[g]        is ground-truth claim g entailed by the response?
//   retrieved2response[i][k]  is response claim i entailed by retrieved chunk k?
//   retrieved2answer[g][k]    is ground-truth claim g entailed by retrieved chunk k?
// Only "Entailment" counts as true; "Neutral" and "Contradiction" are both false.

export const CLAIM_VERDICTS = ["Entailment", "Neutral", "Contradiction"] as const;
export type ClaimVerdict = (typeof CLAIM_VERDICTS)[number];

export interface ClaimChecks {
  answer2response: readonly ClaimVerdict[];
  response2answer: readonly ClaimVerdict[];
  retrieved2response: readonly (readonly ClaimVerdict[])[];
  retrieved2answer: readonly (readonly ClaimVerdict[])[];
}

/** One answer's metrics, each on [0, 1], in RAGChecker's names. */
export interface ClaimMetrics {
  precision: number;
  recall: number;
  f1: number;
  claim_recall: number;
  context_precision: number;
  context_utilization: number;
  noise_sensitivity_in_relevant: number;
  noise_sensitivity_in_irrelevant: number;
  hallucination: number;
  self_knowledge: number;
  faithfulness: number;
}

export const CLAIM_METRIC_GROUPS = {
  overall: ["precision", "recall", "f1"],
  retriever: ["claim_recall", "context_precision"],
  generator: [
    "context_utilization",
    "noise_sensitivity_in_relevant",
    "noise_sensitivity_in_irrelevant",
    "hallucination",
    "self_knowledge",
    "faithfulness",
  ],
} as const satisfies Record<string, readonly (keyof ClaimMetrics)[]>;

/** Many answers' metrics as RAGChecker reports them: the mean × 100, to one decimal. */
export interface ClaimMetricsReport {
  overall: Pick<ClaimMetrics, "precision" | "recall" | "f1">;
  retriever: Pick<ClaimMetrics, "claim_recall" | "context_precision">;
  generator: Pick<
    ClaimMetrics,
    | "context_utilization"
    | "noise_sensitivity_in_relevant"
    | "noise_sensitivity_in_irrelevant"
    | "hallucination"
    | "self_knowledge"
    | "faithfulness"
  >;
}

const entailed = (verdict: ClaimVerdict): boolean => verdict === "Entailment";

function share(flags: readonly boolean[]): number {
  let count = 0;
  for (const flag of flags) if (flag) count++;
  return count / flags.length;
}

/** Whether any chunk entails each claim (numpy's max over axis 1). */
function anyChunk(matrix: readonly (readonly ClaimVerdict[])[]): boolean[] {
  return matrix.map((row) => row.some(entailed));
}

/**
 * One answer's metrics from its verdicts. Where RAGChecker returns 0 for a missing set (no claims,
 * no chunks) so does this; with claims but no chunks at all RAGChecker's claim recall is NaN
 * (numpy's mean of an empty row), which is 0 here: nothing was retrieved, so nothing was recalled.
 */
export function claimMetrics(checks: ClaimChecks): ClaimMetrics {
  const a2r = checks.answer2response.map(entailed);
  const r2a = checks.response2answer.map(entailed);
  const responseClaims = checks.retrieved2response;
  const answerClaims = checks.retrieved2answer;
  const chunks = answerClaims[0]?.length ?? responseClaims[0]?.length ?? 0;

  const precision = a2r.length > 0 ? share(a2r) : 0;
  const recall = r2a.length > 0 ? share(r2a) : 0;
  const f1 = precision > 0 && recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;

  // Retriever: a ground-truth claim is recalled when some chunk entails it; a chunk is relevant
  // (useful) when it entails some ground-truth claim.
  const recalled = anyChunk(answerClaims);
  const relevant = Array.from({ length: chunks }, (_, k) =>
    answerClaims.some((row) => entailed(row[k] as ClaimVerdict)),
  );
  const hasRetrieval = answerClaims.length > 0 && chunks > 0;
  const claim_recall = hasRetrieval ? share(recalled) : 0;
  const context_precision = hasRetrieval ? share(relevant) : 0;

  // Context utilisation: of the ground-truth claims the chunks hold, the share the response states.
  let context_utilization = 0;
  const recalledCount = recalled.filter(Boolean).length;
  if (hasRetrieval && recalledCount > 0) {
    const used = recalled.filter((flag, g) => flag && r2a[g] === true).length;
    context_utilization = used / recalledCount;
  }

  // Noise sensitivity: incorrect response claims (not entailed by the ground truth) that a
  // relevant chunk entails, or else only an irrelevant one.
  let noise_sensitivity_in_relevant = 0;
  let noise_sensitivity_in_irrelevant = 0;
  const responseChunks = responseClaims[0]?.length ?? 0;
  if (a2r.length > 0 && responseChunks > 0 && answerClaims.length > 0) {
    const fromRelevant = responseClaims.map((row) =>
      row.some((verdict, k) => relevant[k] === true && entailed(verdict)),
    );
    const fromIrrelevant = responseClaims.map(
      (row, i) =>
        row.some((verdict, k) => relevant[k] !== true && entailed(verdict)) && !fromRelevant[i],
    );
    noise_sensitivity_in_relevant = share(fromRelevant.map((flag, i) => flag && !a2r[i]));
    noise_sensitivity_in_irrelevant = share(fromIrrelevant.map((flag, i) => flag && !a2r[i]));
  }

  // Generator: a response claim no chunk entails is hallucination when the ground truth does not
  // entail it either, self-knowledge when it does; faithfulness is the share some chunk entails.
  let hallucination = 0;
  let self_knowledge = 0;
  let faithfulness = 0;
  if (responseClaims.length > 0 && responseChunks > 0) {
    const faithful = anyChunk(responseClaims);
    hallucination = share(faithful.map((flag, i) => !flag && !a2r[i]));
    self_knowledge = share(faithful.map((flag, i) => !flag && a2r[i] === true));
    faithfulness = share(faithful);
  }

  return {
    precision,
    recall,
    f1,
    claim_recall,
    context_precision,
    context_utilization,
    noise_sensitivity_in_relevant,
    noise_sensitivity_in_irrelevant,
    hallucination,
    self_knowledge,
    faithfulness,
  };
}

/**
 * numpy's float sum (pairwise_sum in loops_utils.h): plain below 8 values, eight running sums up
 * to 128, halves (cut at a multiple of 8) above. The order of additions decides the last bit.
 */
export function numpySum(values: readonly number[], start = 0, end = values.length): number {
  const n = end - start;
  if (n < 8) {
    let sum = 0;
    for (let i = start; i < end; i++) sum += values[i] as number;
    return sum;
  }
  if (n <= 128) {
    const r = values.slice(start, start + 8) as number[];
    let i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (let j = 0; j < 8; j++) (r[j] as number) += values[start + i + j] as number;
    }
    const [r0, r1, r2, r3, r4, r5, r6, r7] = r as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    let sum = r0 + r1 + (r2 + r3) + (r4 + r5 + (r6 + r7));
    for (; i < n; i++) sum += values[start + i] as number;
    return sum;
  }
  let half = Math.floor(n / 2);
  half -= half % 8;
  return numpySum(values, start, start + half) + numpySum(values, start + half, end);
}

/** numpy's round(x, 1) on a float64: x × 10 rounded half to even, then ÷ 10 (np.around). */
export function numpyRound1(value: number): number {
  const scaled = value * 10;
  let rounded = Math.round(scaled);
  // Math.round takes halves up; rint takes them to the even neighbour.
  if (rounded - scaled === 0.5 && rounded % 2 !== 0) rounded -= 1;
  return rounded / 10;
}

/**
 * Many answers' metrics as RAGChecker's evaluate() reports them: for each metric the mean over
 * the answers (numpy's sum, then ÷ n), × 100, rounded to one decimal. Null for no answers.
 */
export function reportClaimMetrics(items: readonly ClaimMetrics[]): ClaimMetricsReport | null {
  if (items.length === 0) return null;
  const mean = (key: keyof ClaimMetrics) =>
    numpyRound1((numpySum(items.map((item) => item[key])) / items.length) * 100);
  const group = <K extends keyof ClaimMetrics>(keys: readonly K[]) =>
    Object.fromEntries(keys.map((key) => [key, mean(key)])) as Pick<ClaimMetrics, K>;
  return {
    overall: group(CLAIM_METRIC_GROUPS.overall),
    retriever: group(CLAIM_METRIC_GROUPS.retriever),
    generator: group(CLAIM_METRIC_GROUPS.generator),
  };
}
