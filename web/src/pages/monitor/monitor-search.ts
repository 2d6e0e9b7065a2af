// The monitor page's choices, kept in the URL (issue 24 §3): which service or collection, the
// bucket, and what the breakdown groups by. Anything unknown is left out.

export const BUCKET_NAMES = ["minute", "hour", "day"] as const;
export type BucketName = (typeof BUCKET_NAMES)[number];

export interface MonitorSearch {
  service?: string;
  collection?: string;
  bucket?: BucketName;
  /** model, collection, service or metadata.KEY */
  breakdown?: string;
}

const text = (value: unknown): string | undefined => {
  const s = typeof value === "number" ? String(value) : value;
  return typeof s === "string" && s.trim() !== "" ? s.trim().slice(0, 200) : undefined;
};

const BREAKDOWN = /^(model|collection|service|metadata\.\S+)$/;

export function monitorSearchFrom(search: Record<string, unknown>): MonitorSearch {
  const out: MonitorSearch = {};
  const service = text(search.service);
  const collection = text(search.collection);
  // One scope at a time: a service's page or a collection's.
  if (service) out.service = service;
  else if (collection) out.collection = collection;
  const bucket = text(search.bucket);
  if (bucket && (BUCKET_NAMES as readonly string[]).includes(bucket))
    out.bucket = bucket as BucketName;
  const breakdown = text(search.breakdown);
  if (breakdown && BREAKDOWN.test(breakdown)) out.breakdown = breakdown;
  return out;
}

/** The series API's query for the page's choices. */
export function seriesQuery(search: MonitorSearch) {
  return {
    bucket: search.bucket ?? "hour",
    breakdown: search.breakdown ?? "model",
    ...(search.service ? { service: search.service } : {}),
    ...(search.collection ? { collection: search.collection } : {}),
  };
}
