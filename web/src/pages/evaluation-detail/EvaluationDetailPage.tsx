import { SendToLabelling } from "../queues/SendToLabelling";
import { useQueryClient } from "@tanstack/react-query";
import { RunHistory } from "./RunHistory";
import { useCan } from "../../api/session";
import { Link, useNavigate, useParams, useSearch } from "@tanstack/react-router";
import { lazy, Suspense, useCallback, useMemo, useState } from "react";
import { ErrorNote } from "../../components/ErrorNote";
import { useI18n } from "../../i18n/i18n";
import { exportResults } from "./export";
import { BotName } from "../../components/BotName";
import { EmptyResults } from "./EmptyResults";
import {
  filterErrorsOf,
  filtersFromSearch,
  type ResultFilters,
  searchFromFilters,
} from "./filters";
import { FiltersBar } from "./FiltersBar";
import { useLiveEvaluation } from "./live";
import { resultsQueryOptions, useEvaluationDetail, useResults } from "./queries";
import { ResultsList } from "./ResultsList";
import { CostPanel } from "./CostPanel";
import { SummaryPanel } from "./SummaryPanel";
import { RaiseCostLimit } from "./RaiseCostLimit";

const DetailCharts = lazy(() =>
  import("./DetailCharts").then((m) => ({ default: m.DetailCharts })),
);

/** `/evaluations/{eval_id}`: summary, charts, filters (in the URL), and every result. */
export function EvaluationDetailPage() {
  const { t } = useI18n();
  const { evalId } = useParams({ from: "/evaluations/$evalId" });
  const labels = useCan("label");
  const writes = useCan("write");
  const search = useSearch({ from: "/evaluations/$evalId" });
  const navigate = useNavigate({ from: "/evaluations/$evalId" });
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  const queryClient = useQueryClient();
  const setFilters = useCallback(
    (next: ResultFilters) => {
      // The new first page is asked for at once, while the router and the page take the change.
      void queryClient.prefetchInfiniteQuery(resultsQueryOptions(evalId, next));
      void navigate({ search: searchFromFilters(next), replace: true });
    },
    [navigate, queryClient, evalId],
  );

  const [pollFallback, setPollFallback] = useState(false);
  const detail = useEvaluationDetail(evalId, pollFallback);
  const running = detail.data?.status === "RUNNING" || detail.data?.status === "PENDING";
  const live = useLiveEvaluation(evalId, running);
  if ((live === "polling") !== pollFallback && running) setPollFallback(live === "polling");

  const results = useResults(evalId, filters);
  const items = useMemo(() => results.data?.pages.flatMap((p) => p.items) ?? [], [results.data]);
  const matching = results.data?.pages[0]?.total;
  const { fetchNextPage, isPlaceholderData } = results;
  // A placeholder is the previous filter's list: its next page is not this filter's.
  const loadMore = useCallback(() => {
    if (!isPlaceholderData) void fetchNextPage();
  }, [fetchNextPage, isPlaceholderData]);
  const filterKey = useMemo(() => JSON.stringify(searchFromFilters(filters)), [filters]);
  // The server's refusal of a filter goes beside that filter; the list under it is not the
  // filter's, so it is not shown.
  const filterErrors = useMemo(() => filterErrorsOf(results.error), [results.error]);
  const refused = Object.keys(filterErrors).length > 0;
  const [exporting, setExporting] = useState<unknown>();

  const exportAs = async (format: "csv" | "json") => {
    try {
      await exportResults(evalId, filters, format);
      setExporting(undefined);
    } catch (error) {
      setExporting(error);
    }
  };

  // The same elements while only the list changes (a page fetched as it scrolls): React skips
  // the summary and the charts instead of rendering them again.
  const summaryPanel = useMemo(
    () =>
      detail.data && (
        <>
          <SummaryPanel evaluation={detail.data} />
          {writes && detail.data.cost_limit_reached && detail.data.max_cost_usd !== null && (
            <RaiseCostLimit
              evaluationId={detail.data.id}
              limit={detail.data.max_cost_usd}
              spent={detail.data.summary.cost.total.cost_usd}
            />
          )}
          <CostPanel cost={detail.data.summary.cost} limit={detail.data.max_cost_usd} />
        </>
      ),
    [detail.data, writes],
  );
  const charts = useMemo(
    () =>
      detail.data && (
        <Suspense fallback={<p>{t("common.loading")}</p>}>
          <DetailCharts evaluationId={evalId} summary={detail.data.summary} />
        </Suspense>
      ),
    [detail.data, evalId, t],
  );

  if (detail.error) return <ErrorNote error={detail.error} />;
  const evaluation = detail.data;
  const types = evaluation ? Object.keys(evaluation.summary.by_question_type).sort() : [];

  return (
    <>
      <div className="row" style={{ justifyContent: "space-between", alignItems: "center" }}>
        <h1>{evaluation?.name ?? t("common.loading")}</h1>
        <div className="row">
          {live === "streaming" && (
            <span className="badge run" aria-live="polite">
              {t("detail.live")}
            </span>
          )}
          {labels && (
            <Link
              className="button"
              to="/evaluations/$evalId/label"
              params={{ evalId }}
              title={t("label.actionTitle")}
            >
              {t("label.action")}
            </Link>
          )}
          <Link className="button" to="/evaluations/compare" search={{ head: evalId }}>
            {t("detail.compareWith")}
          </Link>
          <SendToLabelling
            source={{ kind: "run", evaluation_id: evalId }}
            name={evaluation?.name ?? ""}
          />
        </div>
      </div>
      {evaluation && (
        <p className="muted" style={{ margin: "0 0 0.5rem" }}>
          <span data-testid="run-bot">
            {t("detail.bot")}: <BotName run={evaluation} />
          </span>
          {evaluation.question_set_id && (
            <span data-testid="run-question-set-version">
              {" · "}
              {t("versions.runOn")}:{" "}
              <Link
                to="/evaluations/question-sets/$qsId"
                params={{ qsId: evaluation.question_set_id }}
                search={
                  evaluation.question_set_version === null
                    ? {}
                    : { to: evaluation.question_set_version }
                }
              >
                {evaluation.question_set_version === null
                  ? t("versions.beforeVersions")
                  : t("versions.label", { n: evaluation.question_set_version })}
              </Link>
            </span>
          )}
        </p>
      )}
      {live === "polling" && <p className="notice">{t("detail.polling")}</p>}
      {/* The results do not wait for the summary: the first cards show as soon as they come. */}
      {summaryPanel}
      {charts}
      <section aria-labelledby="results-title">
        <div className="row" style={{ justifyContent: "space-between", alignItems: "center" }}>
          <h2 id="results-title">{t("detail.results")}</h2>
          <div className="row" role="group" aria-label={t("detail.export")}>
            <span className="muted">{t("detail.export")}:</span>
            <button type="button" onClick={() => void exportAs("csv")}>
              {t("detail.exportCsv")}
            </button>
            <button type="button" onClick={() => void exportAs("json")}>
              {t("detail.exportJson")}
            </button>
          </div>
        </div>
        <ErrorNote error={exporting} />
        <FiltersBar filters={filters} types={types} errors={filterErrors} onChange={setFilters} />
        {refused ? (
          filterErrors.list && (
            <p className="notice bad" role="alert">
              {t("common.error", { message: filterErrors.list })}
            </p>
          )
        ) : (
          <>
            <p className="muted" aria-live="polite" data-testid="results-count">
              {matching === undefined
                ? t("common.loading")
                : t("detail.resultsCount", {
                    shown: matching,
                    total: evaluation?.total_questions ?? "…",
                  })}
            </p>
            <ErrorNote error={results.error} />
            {matching === 0 && !isPlaceholderData ? (
              <EmptyResults filters={filters} onChange={setFilters} />
            ) : (
              <ResultsList
                evaluationId={evalId}
                results={items}
                hasMore={results.hasNextPage}
                loadingMore={results.isFetching}
                loadMore={loadMore}
                resetKey={filterKey}
              />
            )}
          </>
        )}
      </section>
      <RunHistory evaluationId={evalId} status={evaluation?.status} />
    </>
  );
}
