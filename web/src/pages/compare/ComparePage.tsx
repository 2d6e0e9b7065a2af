import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { Fragment, lazy, Suspense, useEffect, useRef, useState } from "react";
import { api, must } from "../../api/client";
import { ErrorNote } from "../../components/ErrorNote";
import { formatDelta, formatScore } from "../../components/format";
import { StatusBadge } from "../../components/StatusBadge";
import { useI18n } from "../../i18n/i18n";
import type { MessageKey } from "../../i18n/strings";
import { useQuestionSets } from "../../api/queries";
import { useEvaluations } from "../evaluation-list/queries";
import { changedOnly } from "./changed";
import { CompareRetrieval } from "./CompareRetrieval";
import { ClaimMetricsCompare } from "./ClaimMetricsCompare";
import { CompareDrill } from "./CompareDrill";
import { rowAfterKey } from "./row-keys";
import { CompareCost } from "./CompareCost";
import { incomparableText } from "./incomparable";

const CompareCharts = lazy(() =>
  import("./CompareCharts").then((m) => ({ default: m.CompareCharts })),
);

/**
 * `/evaluations/compare?base=&head=`: the server's per-question deltas (regressions first, largest
 * drop first), matched by question id on one set or by question text across sets.
 */
export function ComparePage() {
  const { t } = useI18n();
  const search = useSearch({ from: "/evaluations/compare" });
  const navigate = useNavigate({ from: "/evaluations/compare" });
  const runs = useEvaluations();
  const sets = useQuestionSets();
  const { base, head } = search;
  const comparison = useQuery({
    queryKey: ["compare", base, head],
    enabled: base !== undefined && head !== undefined,
    queryFn: () =>
      must(
        api.GET("/api/v1/evaluations/compare", {
          params: { query: { base: base ?? "", head: head ?? "" } },
        }),
      ),
  });
  const data = comparison.data;
  const shown = data ? (search.changed ? changedOnly(data.items) : data.items) : [];
  const keyOf = (d: (typeof shown)[number]) => `${d.base.result_id}:${d.head.result_id}`;
  // The row j/k is on, and the opened row; both by key, so a filter change keeps them if shown.
  const [current, setCurrent] = useState<string>();
  const [opened, setOpened] = useState<string>();
  const toggles = useRef(new Map<string, HTMLButtonElement>());
  const moveRef = useRef<(event: KeyboardEvent) => void>(() => {});
  moveRef.current = (event) => {
    const index = shown.findIndex((d) => keyOf(d) === current);
    const next = rowAfterKey(
      {
        key: event.key,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        altKey: event.altKey,
        target: event.target instanceof HTMLElement ? event.target : null,
      },
      index,
      shown.length,
    );
    if (next === null) return;
    event.preventDefault();
    const key = keyOf(shown[next]!);
    setCurrent(key);
    // A question opened follows the keys, so a person reads the changes one after another.
    if (opened !== undefined) setOpened(key);
    const button = toggles.current.get(key);
    button?.focus();
    button?.scrollIntoView({ block: "nearest" });
  };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => moveRef.current(event);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const pick = (which: "base" | "head", id: string) =>
    void navigate({ search: (s) => ({ ...s, [which]: id || undefined }) });
  const swap = () => void navigate({ search: (s) => ({ ...s, base: s.head, head: s.base }) });
  const setName = (id: string | null) =>
    (id && sets.data?.find((set) => set.id === id)?.name) || id || t("compare.unknownSet");
  const baseIsNewer =
    data !== undefined &&
    Date.parse(data.base.evaluation.gmt_created) > Date.parse(data.head.evaluation.gmt_created);

  return (
    <section aria-labelledby="compare-title">
      <h1 id="compare-title">{t("compare.title")}</h1>
      <div className="row">
        {(["base", "head"] as const).map((which) => (
          <label key={which}>
            {t(which === "base" ? "compare.base" : "compare.head")}
            <select value={search[which] ?? ""} onChange={(e) => pick(which, e.target.value)}>
              <option value="">{t("new.choose")}</option>
              {(runs.data ?? []).map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name} · {t(`status.${r.status}`)}
                </option>
              ))}
            </select>
          </label>
        ))}
        <button type="button" onClick={swap} disabled={!base && !head}>
          {t("compare.swap")}
        </button>
        <label className="inline">
          <input
            type="checkbox"
            checked={search.changed ?? false}
            onChange={(e) =>
              void navigate({ search: (s) => ({ ...s, changed: e.target.checked || undefined }) })
            }
          />
          {t("compare.onlyChanged")}
        </label>
      </div>
      {(!base || !head) && <p className="muted">{t("compare.pick")}</p>}
      <ErrorNote error={comparison.error} />
      {base && head && comparison.isPending && <p>{t("common.loading")}</p>}
      {data && data.incomparable.length > 0 && (
        <div className="notice warn" role="alert" data-testid="compare-incomparable">
          <p style={{ margin: 0 }}>{t("compare.notComparable")}</p>
          <ul style={{ margin: "0.25rem 0 0" }}>
            {data.incomparable.map((reason) => (
              <li key={reason.code}>{incomparableText(reason, t, setName)}</li>
            ))}
          </ul>
        </div>
      )}
      {baseIsNewer && (
        <p className="notice" data-testid="compare-base-newer">
          {t("compare.baseIsNewer")}
        </p>
      )}
      {data && (
        <>
          <p aria-live="polite" data-testid="compare-counts">
            {t("compare.shared", { shared: data.counts.shared })} ·{" "}
            <span className="delta-neg">
              {t("compare.regressions", { n: data.counts.regressions })}
            </span>{" "}
            ·{" "}
            <span className="delta-pos">
              {t("compare.improvements", { n: data.counts.improvements })}
            </span>{" "}
            · {t("compare.meanDelta", { delta: formatDelta(data.counts.mean_score_delta) })}
            {data.matched_by === "question_text" && <> · {t("compare.byText")}</>}
          </p>
          {data.counts.changed_questions > 0 && (
            <p className="notice warn" data-testid="compare-changed-questions">
              {t("compare.changedQuestions", { n: data.counts.changed_questions })}
            </p>
          )}
          <Suspense fallback={<p>{t("common.loading")}</p>}>
            <CompareCharts comparison={data} />
          </Suspense>
          <CompareRetrieval base={data.base.summary} head={data.head.summary} />
          <ClaimMetricsCompare base={data.base.summary} head={data.head.summary} />
          <p className="muted">{t("compare.drill.keys")}</p>
          <CompareCost base={data.base} head={data.head} />
          <div className="table-scroll">
            <table data-testid="compare-table">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">{t("card.question")}</th>
                  <th scope="col">A</th>
                  <th scope="col">B</th>
                  <th scope="col">{t("compare.delta")}</th>
                  <th scope="col">{t("compare.pass")}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t("compare.kind.changed")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((d) => {
                  const key = keyOf(d);
                  const isOpen = opened === key;
                  const n = d.head.position + 1;
                  return (
                    <Fragment key={key}>
                      <tr
                        data-testid="compare-row"
                        data-kind={d.change}
                        data-current={current === key || undefined}
                        className={current === key ? "current-row" : undefined}
                      >
                        <td>
                          <button
                            type="button"
                            className="row-toggle"
                            aria-expanded={isOpen}
                            aria-label={t(isOpen ? "compare.drill.close" : "compare.drill.open", {
                              n,
                            })}
                            ref={(el) => {
                              if (el) toggles.current.set(key, el);
                              else toggles.current.delete(key);
                            }}
                            onFocus={() => setCurrent(key)}
                            onClick={() => setOpened(isOpen ? undefined : key)}
                          >
                            {isOpen ? "▾" : "▸"} {n}
                          </button>
                        </td>
                        <td>{d.question_text}</td>
                        <td>
                          {d.base.status === "SCORED" ? (
                            formatScore(d.base.score)
                          ) : (
                            <StatusBadge status={d.base.status} />
                          )}
                        </td>
                        <td>
                          {d.head.status === "SCORED" ? (
                            formatScore(d.head.score)
                          ) : (
                            <StatusBadge status={d.head.status} />
                          )}
                        </td>
                        <td
                          className={
                            d.score_delta !== null && d.score_delta < 0
                              ? "delta-neg"
                              : d.score_delta !== null && d.score_delta > 0
                                ? "delta-pos"
                                : undefined
                          }
                        >
                          {formatDelta(d.score_delta)}
                        </td>
                        <td>
                          {d.base.passed === null ? "—" : d.base.passed ? "✓" : "✗"} →{" "}
                          {d.head.passed === null ? "—" : d.head.passed ? "✓" : "✗"}
                        </td>
                        <td>
                          <span
                            className={`badge ${d.change === "regression" ? "bad" : d.change === "improvement" ? "ok" : ""}`}
                          >
                            {t(`compare.kind.${d.change}` as MessageKey)}
                          </span>
                        </td>
                      </tr>
                      {isOpen && data && (
                        <tr data-testid="compare-drill-row">
                          <td colSpan={7}>
                            <CompareDrill
                              base={{
                                evaluationId: data.base.evaluation.id,
                                resultId: d.base.result_id,
                                runName: data.base.evaluation.name,
                              }}
                              head={{
                                evaluationId: data.head.evaluation.id,
                                resultId: d.head.result_id,
                                runName: data.head.evaluation.name,
                              }}
                            />
                          </td>
                        </tr>
                      )}
                    </Fragment>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
