// How numbers read on every page. A missing value shows as a dash, never as a zero.

export function formatScore(score: number | null | undefined): string {
  return score === null || score === undefined ? "—" : score.toFixed(2);
}

export function formatPercent(rate: number | null | undefined): string {
  return rate === null || rate === undefined ? "—" : `${(rate * 100).toFixed(1)}%`;
}

export function formatMs(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? "—" : ms < 10 ? ms.toFixed(1) : String(Math.round(ms));
}

export function formatDate(iso: string | null | undefined, language: string): string {
  if (!iso) return "—";
  return new Date(iso).toLocaleString(language === "zh" ? "zh-CN" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
  });
}

export function formatDelta(delta: number | null): string {
  if (delta === null) return "—";
  const sign = delta > 0 ? "+" : delta < 0 ? "−" : "±";
  return `${sign}${Math.abs(delta).toFixed(2)}`;
}

/** US dollars: cents from a cent up, two significant digits below (a cheap run is not $0.00). */
export function formatUsd(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return "—";
  if (usd === 0) return "$0.00";
  if (usd >= 0.01) return `$${usd.toFixed(2)}`;
  return `$${usd.toFixed(Math.min(8, 1 - Math.floor(Math.log10(usd))))}`;
}
