import { useEffect, useState } from "react";
import { RESULT_STATUSES, type ResultStatus } from "../../api/types";
import { useI18n } from "../../i18n/i18n";
import type { MessageKey } from "../../i18n/strings";
import { hasFilters, type ResultFilters } from "./filters";

// The gate verdicts the API filters by ("none": the answer was not gated).
const GATE_VERDICTS = ["pass", "partial", "fail", "skipped", "none"];

/** The detail page's filters; every change goes to the URL through `onChange`. */
export function FiltersBar({
  filters,
  types,
  onChange,
}: {
  filters: ResultFilters;
  types: string[];
  onChange: (filters: ResultFilters) => void;
}) {
  const { t } = useI18n();
  const [q, setQ] = useState(filters.q ?? "");
  useEffect(() => setQ(filters.q ?? ""), [filters.q]);
  // Typing settles before the URL (and the query) changes.
  useEffect(() => {
    if ((filters.q ?? "") === q.trim()) return;
    const timer = setTimeout(() => onChange({ ...filters, q: q.trim() || undefined }), 250);
    return () => clearTimeout(timer);
  }, [q, filters, onChange]);

  const set = (patch: Partial<ResultFilters>) => onChange({ ...filters, ...patch });
  const toggleStatus = (status: ResultStatus) => {
    const current = filters.status ?? [];
    const next = current.includes(status)
      ? current.filter((s) => s !== status)
      : [...current, status];
    set({ status: next.length > 0 ? next : undefined });
  };
  const number = (value: string) => (value === "" ? undefined : Number(value));

  return (
    <fieldset
      className="row"
      style={{ border: "1px solid var(--border)", borderRadius: 6, padding: "0.5rem 0.75rem" }}
    >
      <legend>{t("filters.title")}</legend>
      <div
        role="group"
        aria-label={t("filters.status")}
        className="row"
        style={{ gap: "0.4rem", alignItems: "center" }}
      >
        <span className="muted">{t("filters.status")}:</span>
        {RESULT_STATUSES.map((status) => (
          <label key={status} className="inline">
            <input
              type="checkbox"
              checked={filters.status?.includes(status) ?? false}
              onChange={() => toggleStatus(status)}
            />
            {t(`status.${status}` as MessageKey)}
          </label>
        ))}
      </div>
      <label>
        {t("filters.passed")}
        <select
          value={filters.outcome ?? ""}
          onChange={(e) =>
            set({ outcome: (e.target.value || undefined) as ResultFilters["outcome"] })
          }
        >
          <option value="">{t("common.all")}</option>
          <option value="passed">{t("filters.passedOnly")}</option>
          <option value="failed">{t("filters.failedOnly")}</option>
        </select>
      </label>
      <label>
        {t("filters.gate")}
        <select
          value={filters.gate ?? ""}
          onChange={(e) => set({ gate: e.target.value || undefined })}
        >
          <option value="">{t("common.all")}</option>
          {GATE_VERDICTS.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("filters.type")}
        <select
          value={filters.type ?? ""}
          onChange={(e) => set({ type: e.target.value || undefined })}
        >
          <option value="">{t("common.all")}</option>
          {types.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("filters.minScore")}
        <input
          type="number"
          min={0}
          max={1}
          step={0.05}
          style={{ width: "6em" }}
          value={filters.min ?? ""}
          onChange={(e) => set({ min: number(e.target.value) })}
        />
      </label>
      <label>
        {t("filters.maxScore")}
        <input
          type="number"
          min={0}
          max={1}
          step={0.05}
          style={{ width: "6em" }}
          value={filters.max ?? ""}
          onChange={(e) => set({ max: number(e.target.value) })}
        />
      </label>
      <label style={{ flex: 1, minWidth: "14em" }}>
        {t("filters.search")}
        <input type="search" value={q} onChange={(e) => setQ(e.target.value)} />
      </label>
      <button type="button" disabled={!hasFilters(filters)} onClick={() => onChange({})}>
        {t("filters.clear")}
      </button>
    </fieldset>
  );
}
