import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { api, must } from "../../api/client";
import { ErrorNote } from "../../components/ErrorNote";
import { formatDelta, formatScore } from "../../components/format";
import { StatusBadge } from "../../components/StatusBadge";
import { useI18n } from "../../i18n/i18n";
import type { MessageKey } from "../../i18n/strings";
import { useQuestionSets } from "../../api/queries";
import { useEvaluations } from "../evaluation-list/queries";
import { changedOnly } from "./changed";
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
                  {r.name} · {r.status}
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
          <Suspense fallback={<p>{t("common.loading")}</p>}>
            <CompareCharts comparison={data} />
          </Suspense>
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
                {shown.map((d) => (
                  <tr
                    key={`${d.base.question_id}:${d.head.question_id}`}
                    data-testid="compare-row"
                    data-kind={d.change}
                  >
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
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
