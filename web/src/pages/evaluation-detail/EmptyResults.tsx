import { useI18n } from "../../i18n/i18n";
import type { MessageKey } from "../../i18n/strings";
import { activeFilters, type FilterName, type ResultFilters } from "./filters";

type T = ReturnType<typeof useI18n>["t"];

/** One filter in words, as the bar labels it: "Outcome: Failed", "Score from 0.9", the search "…". */
function filterPhrase(name: FilterName, filters: ResultFilters, t: T): string {
  switch (name) {
    case "status":
      return t("filters.phrase", {
        label: t("filters.status"),
        value: (filters.status ?? []).map((s) => t(`status.${s}` as MessageKey)).join(", "),
      });
    case "outcome":
      return t("filters.phrase", {
        label: t("filters.passed"),
        value: t(filters.outcome === "passed" ? "filters.passedOnly" : "filters.failedOnly"),
      });
    case "gate":
      return t("filters.phrase", { label: t("filters.gate"), value: filters.gate ?? "" });
    case "type":
      return t("filters.phrase", { label: t("filters.type"), value: filters.type ?? "" });
    case "min":
      return t("filters.phraseScore", { label: t("filters.minScore"), value: filters.min ?? "" });
    case "max":
      return t("filters.phraseScore", { label: t("filters.maxScore"), value: filters.max ?? "" });
    case "q":
      return t("filters.phraseSearch", { q: filters.q ?? "" });
  }
}

/**
 * What the results list says when nothing is in it: which filter left it empty (each one set,
 * with a button that removes it), or that the run has no results yet.
 */
export function EmptyResults({
  filters,
  onChange,
}: {
  filters: ResultFilters;
  onChange: (filters: ResultFilters) => void;
}) {
  const { t } = useI18n();
  const names = activeFilters(filters);
  const remove = (name: FilterName) => {
    const next = { ...filters };
    delete next[name];
    onChange(next);
  };
  const [only] = names;
  if (only === undefined)
    return (
      <p className="notice" data-testid="results-empty">
        {t("detail.emptyRun")}
      </p>
    );
  if (names.length === 1)
    return (
      <p className="notice" data-testid="results-empty">
        {t("detail.emptyOne", { filter: filterPhrase(only, filters, t) })}{" "}
        <button
          type="button"
          aria-label={t("filters.removeLabel", { filter: filterPhrase(only, filters, t) })}
          onClick={() => remove(only)}
        >
          {t("filters.remove")}
        </button>
      </p>
    );
  return (
    <div className="notice" data-testid="results-empty">
      <p style={{ margin: 0 }}>{t("detail.emptyMany")}</p>
      <ul className="empty-filters">
        {names.map((name) => (
          <li key={name}>
            {filterPhrase(name, filters, t)}{" "}
            <button
              type="button"
              aria-label={t("filters.removeLabel", { filter: filterPhrase(name, filters, t) })}
              onClick={() => remove(name)}
            >
              {t("filters.remove")}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
