import { useEffect, useState } from "react";
import { RESULT_STATUSES, type ResultStatus } from "../../api/types";
import { useI18n } from "../../i18n/i18n";
import type { MessageKey } from "../../i18n/strings";
import { hasFilters, type ResultFilters } from "./filters";

// The gate verdicts the API filters by ("none": the answer was not gated).
const GATE_VERDICTS = ["pass", "partial", "fail", "skipped", "none"];

interface Option<V extends string> {
  value: V;
  label: string;
}

const asOption = (value: string): Option<string> => ({ value, label: value });

/** One filter chosen from a list, or none ("All"). */
function ChoiceFilter<V extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: V | undefined;
  options: readonly Option<V>[];
  onChange: (value: V | undefined) => void;
}) {
  const { t } = useI18n();
  return (
    <label>
      {label}
      <select
        value={value ?? ""}
        onChange={(e) => onChange(options.find((o) => o.value === e.target.value)?.value)}
      >
        <option value="">{t("common.all")}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A bound of the score range, on [0, 1]; empty is no bound. */
function ScoreFilter({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
}) {
  return (
    <label>
      {label}
      <input
        type="number"
        min={0}
        max={1}
        step={0.05}
        style={{ width: "6em" }}
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))}
      />
    </label>
  );
}

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
      <ChoiceFilter
        label={t("filters.passed")}
        value={filters.outcome}
        options={[
          { value: "passed" as const, label: t("filters.passedOnly") },
          { value: "failed" as const, label: t("filters.failedOnly") },
        ]}
        onChange={(outcome) => set({ outcome })}
      />
      <ChoiceFilter
        label={t("filters.gate")}
        value={filters.gate}
        options={GATE_VERDICTS.map(asOption)}
        onChange={(gate) => set({ gate })}
      />
      <ChoiceFilter
        label={t("filters.type")}
        value={filters.type}
        options={types.map(asOption)}
        onChange={(type) => set({ type })}
      />
      <ScoreFilter
        label={t("filters.minScore")}
        value={filters.min}
        onChange={(min) => set({ min })}
      />
      <ScoreFilter
        label={t("filters.maxScore")}
        value={filters.max}
        onChange={(max) => set({ max })}
      />
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
