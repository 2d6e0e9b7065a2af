import { type FormEvent, useEffect, useState } from "react";
import type { MessageKey } from "../../i18n/strings";
import { useI18n } from "../../i18n/i18n";
import {
  type AnswerFilters,
  FEEDBACK_FILTERS,
  filtersFromSearch,
  GATE_VERDICTS,
  TIME_RANGES,
} from "./filters";

/**
 * The answer list's filters. Choices apply at once; the service and model boxes apply on Enter or
 * "Apply", so a half-typed name never reloads the list.
 */
export function AnswerFiltersBar({
  filters,
  onChange,
}: {
  filters: AnswerFilters;
  onChange: (next: AnswerFilters) => void;
}) {
  const { t } = useI18n();
  const [service, setService] = useState(filters.service ?? "");
  const [model, setModel] = useState(filters.model ?? "");
  useEffect(() => {
    setService(filters.service ?? "");
    setModel(filters.model ?? "");
  }, [filters.service, filters.model]);

  const set = (key: keyof AnswerFilters, value: string) =>
    onChange(filtersFromSearch({ ...filters, [key]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange(filtersFromSearch({ ...filters, service, model }));
  };

  return (
    <form
      className="row"
      onSubmit={submit}
      style={{ flexWrap: "wrap", gap: "0.75rem", marginBottom: "1rem" }}
    >
      <label className="field">
        {t("prod.filter.gate")}
        <select value={filters.gate ?? ""} onChange={(e) => set("gate", e.target.value)}>
          <option value="">{t("common.all")}</option>
          {GATE_VERDICTS.map((v) => (
            <option key={v} value={v}>
              {t(`prod.verdict.${v}` as MessageKey)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        {t("prod.filter.service")}
        <input value={service} onChange={(e) => setService(e.target.value)} size={14} />
      </label>
      <label className="field">
        {t("prod.filter.model")}
        <input value={model} onChange={(e) => setModel(e.target.value)} size={14} />
      </label>
      <label className="field">
        {t("prod.filter.range")}
        <select value={filters.range ?? ""} onChange={(e) => set("range", e.target.value)}>
          <option value="">{t("prod.range.any")}</option>
          {TIME_RANGES.map((r) => (
            <option key={r} value={r}>
              {t(`prod.range.${r}` as MessageKey)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        {t("prod.filter.feedback")}
        <select value={filters.feedback ?? ""} onChange={(e) => set("feedback", e.target.value)}>
          <option value="">{t("prod.feedback.anyOrNone")}</option>
          {FEEDBACK_FILTERS.map((f) => (
            <option key={f} value={f}>
              {t(`prod.feedback.${f}` as MessageKey)}
            </option>
          ))}
        </select>
      </label>
      <div className="row" style={{ alignItems: "flex-end", gap: "0.5rem" }}>
        <button type="submit">{t("prod.filter.apply")}</button>
        {Object.keys(filters).length > 0 && (
          <button type="button" onClick={() => onChange({})}>
            {t("prod.filter.clear")}
          </button>
        )}
      </div>
    </form>
  );
}
