// The answer list's filters, kept in the URL (issue 24 §3) so a filtered list can be shared or
// reloaded: what the address says, and the API query it asks for.

export const GATE_VERDICTS = ["pass", "partial", "fail", "skipped"] as const;
export type GateVerdict = (typeof GATE_VERDICTS)[number];
export const TIME_RANGES = ["1h", "24h", "7d", "30d"] as const;
export type TimeRange = (typeof TIME_RANGES)[number];
export const FEEDBACK_FILTERS = ["any", "none"] as const;
export type FeedbackFilter = (typeof FEEDBACK_FILTERS)[number];

export interface AnswerFilters {
  gate?: GateVerdict;
  service?: string;
  model?: string;
  range?: TimeRange;
  feedback?: FeedbackFilter;
}

const RANGE_MS: Record<TimeRange, number> = {
  "1h": 3_600_000,
  "24h": 86_400_000,
  "7d": 7 * 86_400_000,
  "30d": 30 * 86_400_000,
};

const oneOf = <T extends string>(choices: readonly T[], value: unknown): T | undefined =>
  typeof value === "string" && (choices as readonly string[]).includes(value)
    ? (value as T)
    : undefined;

const text = (value: unknown): string | undefined => {
  const s = typeof value === "number" ? String(value) : value;
  return typeof s === "string" && s.trim() !== "" ? s.trim().slice(0, 200) : undefined;
};

/** The filters an address asks for; anything unknown is left out. */
export function filtersFromSearch(search: Record<string, unknown>): AnswerFilters {
  const filters: AnswerFilters = {};
  const gate = oneOf(GATE_VERDICTS, search.gate);
  if (gate) filters.gate = gate;
  const service = text(search.service);
  if (service) filters.service = service;
  const model = text(search.model);
  if (model) filters.model = model;
  const range = oneOf(TIME_RANGES, search.range);
  if (range) filters.range = range;
  const feedback = oneOf(FEEDBACK_FILTERS, search.feedback);
  if (feedback) filters.feedback = feedback;
  return filters;
}

/** The API query for the filters, a time range counted back from `now`. */
export function answerQuery(filters: AnswerFilters, now: Date) {
  return {
    ...(filters.gate ? { gate: filters.gate } : {}),
    ...(filters.service ? { service: filters.service } : {}),
    ...(filters.model ? { model: filters.model } : {}),
    ...(filters.range
      ? { from: new Date(now.getTime() - RANGE_MS[filters.range]).toISOString() }
      : {}),
    ...(filters.feedback ? { feedback: filters.feedback } : {}),
  };
}
