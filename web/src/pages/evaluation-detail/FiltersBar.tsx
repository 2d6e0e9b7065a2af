import { useEffect, useId, useState } from "react";
import { RESULT_STATUSES, type ResultStatus } from "../../api/types";
import { FieldError } from "../../components/FieldError";
import { useI18n } from "../../i18n/i18n";
import type { MessageKey } from "../../i18n/strings";
import { type FilterName, hasFilters, readScoreInput, type ResultFilters } from "./filters";

/** The server's refusal of a filter, by filter (and `list` for the rest). */
export type FilterErrors = Partial<Record<FilterName | "list", string>>;

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
  error,
  onChange,
}: {
  label: string;
  value: V | undefined;
  options: readonly Option<V>[];
  error?: string;
  onChange: (value: V | undefined) => void;
}) {
  const { t } = useI18n();
  const errorId = useId();
  return (
    <div className="field">
      <label>
        {label}
        <select
          value={value ?? ""}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
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
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/**
 * A bound of the score range, on [0, 1]; empty is no bound. What is typed stays in the field:
 * a value the list cannot use is not applied, and why is said beside the field.
 */
function ScoreFilter({
  label,
  value,
  error,
  conflict,
  onChange,
}: {
  label: string;
  value: number | undefined;
  /** The server's refusal of this bound. */
  error?: string;
  /** Why a usable value still cannot be applied (it is past the other bound), if it cannot. */
  conflict: (value: number) => string | undefined;
  onChange: (value: number | undefined) => void;
}) {
  const { t } = useI18n();
  const errorId = useId();
  const [draft, setDraft] = useState(value === undefined ? "" : String(value));
  const [issue, setIssue] = useState<string>();
  // A change from elsewhere (Clear filters, a link) replaces what was typed.
  useEffect(() => {
    setDraft((typed) => {
      const read = readScoreInput(typed);
      return "value" in read && read.value === value
        ? typed
        : value === undefined
          ? ""
          : String(value);
    });
    setIssue(undefined);
  }, [value]);

  const change = (typed: string) => {
    setDraft(typed);
    const read = readScoreInput(typed);
    const refused =
      "issue" in read
        ? t(`filters.score.${read.issue}`)
        : read.value === undefined
          ? undefined
          : conflict(read.value);
    setIssue(refused);
    if (!refused && "value" in read && read.value !== value) onChange(read.value);
  };

  const shown = issue ?? error;
  return (
    <div className="field">
      <label>
        {label}
        <input
          type="text"
          inputMode="decimal"
          style={{ width: "6em" }}
          value={draft}
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? errorId : undefined}
          onChange={(e) => change(e.target.value)}
        />
      </label>
      <FieldError id={errorId} message={shown} />
    </div>
  );
}

/** The detail page's filters; every change goes to the URL through `onChange`. */
export function FiltersBar({
  filters,
  types,
  errors = {},
  onChange,
}: {
  filters: ResultFilters;
  types: string[];
  /** The server's refusal of the filters, shown beside the filters it names. */
  errors?: FilterErrors;
  onChange: (filters: ResultFilters) => void;
}) {
  const { t } = useI18n();
  const searchErrorId = useId();
  const statusErrorId = useId();
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
        aria-describedby={errors.status ? statusErrorId : undefined}
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
        <FieldError id={statusErrorId} message={errors.status} />
      </div>
      <ChoiceFilter
        label={t("filters.passed")}
        value={filters.outcome}
        options={[
          { value: "passed" as const, label: t("filters.passedOnly") },
          { value: "failed" as const, label: t("filters.failedOnly") },
        ]}
        error={errors.outcome}
        onChange={(outcome) => set({ outcome })}
      />
      <ChoiceFilter
        label={t("filters.gate")}
        value={filters.gate}
        options={GATE_VERDICTS.map(asOption)}
        error={errors.gate}
        onChange={(gate) => set({ gate })}
      />
      <ChoiceFilter
        label={t("filters.type")}
        value={filters.type}
        options={types.map(asOption)}
        error={errors.type}
        onChange={(type) => set({ type })}
      />
      <ScoreFilter
        label={t("filters.minScore")}
        value={filters.min}
        error={errors.min}
        conflict={(min) =>
          filters.max !== undefined && min > filters.max
            ? t("filters.score.aboveMax", { max: filters.max })
            : undefined
        }
        onChange={(min) => set({ min })}
      />
      <ScoreFilter
        label={t("filters.maxScore")}
        value={filters.max}
        error={errors.max}
        conflict={(max) =>
          filters.min !== undefined && max < filters.min
            ? t("filters.score.belowMin", { min: filters.min })
            : undefined
        }
        onChange={(max) => set({ max })}
      />
      <div className="field" style={{ flex: 1, minWidth: "min(14em, 100%)" }}>
        <label>
          {t("filters.search")}
          <input
            type="search"
            value={q}
            aria-invalid={errors.q ? true : undefined}
            aria-describedby={errors.q ? searchErrorId : undefined}
            onChange={(e) => setQ(e.target.value)}
          />
        </label>
        <FieldError id={searchErrorId} message={errors.q} />
      </div>
      <button type="button" disabled={!hasFilters(filters)} onClick={() => onChange({})}>
        {t("filters.clear")}
      </button>
    </fieldset>
  );
}
