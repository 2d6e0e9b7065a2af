import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { lazy, Suspense, useMemo } from "react";
import { api, must } from "../../api/client";
import type { EvaluationDetail } from "../../api/types";
import { ErrorNote } from "../../components/ErrorNote";
import { formatDelta, formatScore } from "../../components/format";
import { StatusBadge } from "../../components/StatusBadge";
import { useI18n } from "../../i18n/i18n";
import type { MessageKey } from "../../i18n/strings";
import { fetchAllResults } from "../evaluation-detail/queries";
import { useEvaluations } from "../evaluation-list/queries";
import { compareResults, countKinds } from "./deltas";

const CompareCharts = lazy(() =>
  import("./CompareCharts").then((m) => ({ default: m.CompareCharts })),
);

function useRun(id: string | undefined) {
  const detail = useQuery({
    queryKey: ["evaluation", id],
    enabled: id !== undefined,
    queryFn: async () =>
      (await must(
        api.GET("/api/v1/evaluations/{id}", { params: { path: { id: id ?? "" } } }),
      )) as unknown as EvaluationDetail,
  });
  const results = useQuery({
    queryKey: ["evaluation", id, "all-results"],
    enabled: id !== undefined,
    queryFn: () => fetchAllResults(id ?? "", {}),
  });
  return { detail, results };
}

/** `/evaluations/compare?base=&head=`: per-question deltas, regressions first. */
export function ComparePage() {
  const { t } = useI18n();
  const search = useSearch({ from: "/evaluations/compare" });
  const navigate = useNavigate({ from: "/evaluations/compare" });
  const runs = useEvaluations();
  const base = useRun(search.base);
  const head = useRun(search.head);
  const deltas = useMemo(
    () =>
      base.results.data && head.results.data
        ? compareResults(base.results.data, head.results.data)
        : undefined,
    [base.results.data, head.results.data],
  );
  const counts = deltas ? countKinds(deltas) : undefined;
  const shown = deltas?.filter((d) => !search.changed || d.kind !== "unchanged") ?? [];

  const pick = (which: "base" | "head", id: string) =>
    void navigate({ search: (s) => ({ ...s, [which]: id || undefined }) });

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
                  {r.name} · {r.status}
                </option>
              ))}
            </select>
          </label>
        ))}
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
      {(!search.base || !search.head) && <p className="muted">{t("compare.pick")}</p>}
      <ErrorNote
        error={base.detail.error ?? head.detail.error ?? base.results.error ?? head.results.error}
      />
      {search.base && search.head && !deltas && <p>{t("common.loading")}</p>}
      {deltas && counts && (
        <>
          <p aria-live="polite" data-testid="compare-counts">
            {t("compare.shared", { shared: deltas.length })} ·{" "}
            <span className="delta-neg">{t("compare.regressions", { n: counts.regression })}</span>{" "}
            ·{" "}
            <span className="delta-pos">
              {t("compare.improvements", { n: counts.improvement })}
            </span>
          </p>
          {base.detail.data && head.detail.data && (
            <Suspense fallback={<p>{t("common.loading")}</p>}>
              <CompareCharts deltas={deltas} base={base.detail.data} head={head.detail.data} />
            </Suspense>
          )}
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
              {shown.map((d) => (
                <tr key={d.key} data-testid="compare-row" data-kind={d.kind}>
                  <td>{d.base.position + 1}</td>
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
                      d.delta !== null && d.delta < 0
                        ? "delta-neg"
                        : d.delta !== null && d.delta > 0
                          ? "delta-pos"
                          : undefined
                    }
                  >
                    {formatDelta(d.delta)}
                  </td>
                  <td>
                    {d.base.passed === null ? "—" : d.base.passed ? "✓" : "✗"} →{" "}
                    {d.head.passed === null ? "—" : d.head.passed ? "✓" : "✗"}
                  </td>
                  <td>
                    <span
                      className={`badge ${d.kind === "regression" ? "bad" : d.kind === "improvement" ? "ok" : d.kind === "changed" ? "warn" : ""}`}
                    >
                      {t(`compare.kind.${d.kind}` as MessageKey)}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
