// The monitor form's draft (what the person typed) and the API body it becomes: pure, so the
// rules (percent to share, metadata lines, blank fields left out) are tested without a page.

export const FORM_JUDGES = ["offline", "token_precision", "review", "rubric"] as const;
export type FormJudge = (typeof FORM_JUDGES)[number];
export const FORM_VERDICTS = ["pass", "partial", "fail", "skipped"] as const;
export type FormVerdict = (typeof FORM_VERDICTS)[number];
export const FORM_FEEDBACK = ["", "any", "up", "down"] as const;
export type FormFeedback = (typeof FORM_FEEDBACK)[number];

export interface MonitorDraft {
  name: string;
  enabled: boolean;
  collection: string;
  model: string;
  service: string;
  /** key=value, one a line */
  metadata: string;
  gate: FormVerdict[];
  feedback: FormFeedback;
  samplePercent: string;
  judges: FormJudge[];
  perMinute: string;
  perDay: string;
}

export const EMPTY_DRAFT: MonitorDraft = {
  name: "",
  enabled: true,
  collection: "",
  model: "",
  service: "",
  metadata: "",
  gate: [],
  feedback: "",
  samplePercent: "100",
  judges: ["offline"],
  perMinute: "60",
  perDay: "10000",
};

export interface MonitorBody {
  name: string;
  enabled: boolean;
  filter: {
    collection?: string;
    model?: string;
    service?: string;
    metadata?: Record<string, string>;
    gate?: FormVerdict[];
    feedback?: "any" | "up" | "down";
  };
  sample_rate: number;
  judges: FormJudge[];
  max_calls_per_minute: number;
  max_calls_per_day: number;
}

/** The metadata lines as pairs, or the number of the first line that is not key=value. */
export function parseMetadataLines(text: string): Record<string, string> | { badLine: number } {
  const pairs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]?.trim() ?? "";
    if (line === "") continue;
    const eq = line.indexOf("=");
    if (eq <= 0) return { badLine: i + 1 };
    pairs[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return pairs;
}

/** The body to send; numbers the server checks (a 400 names the field). */
export function bodyOf(draft: MonitorDraft): MonitorBody | { badLine: number } {
  const metadata = parseMetadataLines(draft.metadata);
  if ("badLine" in metadata && typeof metadata.badLine === "number") {
    return { badLine: metadata.badLine };
  }
  const pairs = metadata as Record<string, string>;
  const filter: MonitorBody["filter"] = {};
  if (draft.collection.trim()) filter.collection = draft.collection.trim();
  if (draft.model.trim()) filter.model = draft.model.trim();
  if (draft.service.trim()) filter.service = draft.service.trim();
  if (Object.keys(pairs).length > 0) filter.metadata = pairs;
  if (draft.gate.length > 0) filter.gate = draft.gate;
  if (draft.feedback) filter.feedback = draft.feedback;
  return {
    name: draft.name,
    enabled: draft.enabled,
    filter,
    sample_rate: Number(draft.samplePercent) / 100,
    judges: draft.judges,
    max_calls_per_minute: Number(draft.perMinute),
    max_calls_per_day: Number(draft.perDay),
  };
}

/** The draft a stored monitor edits from. */
export function draftOf(monitor: MonitorBody): MonitorDraft {
  return {
    name: monitor.name,
    enabled: monitor.enabled,
    collection: monitor.filter.collection ?? "",
    model: monitor.filter.model ?? "",
    service: monitor.filter.service ?? "",
    metadata: Object.entries(monitor.filter.metadata ?? {})
      .map(([key, value]) => `${key}=${value}`)
      .join("\n"),
    gate: monitor.filter.gate ?? [],
    feedback: monitor.filter.feedback ?? "",
    samplePercent: String(Math.round(monitor.sample_rate * 1000) / 10),
    judges: monitor.judges,
    perMinute: String(monitor.max_calls_per_minute),
    perDay: String(monitor.max_calls_per_day),
  };
}
