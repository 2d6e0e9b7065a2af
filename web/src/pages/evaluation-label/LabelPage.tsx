import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams, useSearch } from "@tanstack/react-router";
import { useCallback, useEffect, useState } from "react";
import { ApiError } from "../../api/client";
import { ErrorNote } from "../../components/ErrorNote";
import { ProgressBar } from "../../components/ProgressBar";
import { useI18n } from "../../i18n/i18n";
import { CalibrationPanel } from "./CalibrationPanel";
import { LabelItemView } from "./LabelItemView";
import { firstScoredResultId, nextUnlabelledId, useLabelItem, useLabelStart } from "./queries";
import type { LabelScale } from "./shortcuts";

/**
 * `/evaluations/{eval_id}/label`: one result at a time, scored blind on the judge's scale, then
 * shown beside the judges' verdict; and the run's calibration against those labels. The URL holds
 * the result and the scale, so a reload or a shared link opens the same place.
 */
export function LabelPage() {
  const { t } = useI18n();
  const { evalId } = useParams({ from: "/evaluations/$evalId/label" });
  const search = useSearch({ from: "/evaluations/$evalId/label" });
  const navigate = useNavigate({ from: "/evaluations/$evalId/label" });
  const queryClient = useQueryClient();
  const start = useLabelStart(evalId, search.scale, search.result === undefined);
  const item = useLabelItem(evalId, search.result, search.scale);
  const [moving, setMoving] = useState<unknown>();

  const goTo = useCallback(
    (result: string | undefined, scale = search.scale) =>
      void navigate({
        search: { ...(result ? { result } : {}), ...(scale ? { scale } : {}) },
      }),
    [navigate, search.scale],
  );

  // Without a result in the URL, open the first unlabelled one (replacing the bare URL).
  useEffect(() => {
    const first = start.data?.result;
    if (search.result === undefined && first) {
      void navigate({
        search: { result: first.id, ...(search.scale ? { scale: search.scale } : {}) },
        replace: true,
      });
    }
  }, [start.data, search.result, search.scale, navigate]);

  const skip = useCallback(async () => {
    const data = item.data;
    if (!data) return;
    try {
      setMoving(undefined);
      const next = await nextUnlabelledId(evalId, data.scale, data.result.position);
      await queryClient.invalidateQueries({ queryKey: ["evaluation", evalId, "labels", "start"] });
      goTo(next ?? undefined);
    } catch (error) {
      setMoving(error);
    }
  }, [item.data, evalId, goTo, queryClient]);

  const reviewFromFirst = async () => {
    try {
      goTo((await firstScoredResultId(evalId)) ?? undefined);
    } catch (error) {
      setMoving(error);
    }
  };

  const failure = item.error ?? start.error;
  const notFound = ApiError.isInstance(failure) && failure.status === 404;
  // The run's name and judges come with the item: the page never loads the run's results, whose
  // verdicts could anchor the person.
  const counts = item.data ?? start.data;
  const total = counts ? counts.labelled + counts.unlabelled : undefined;
  const scales = counts?.scales ?? [];
  const scale = counts?.scale;

  return (
    <>
      <div className="row" style={{ justifyContent: "space-between", alignItems: "center" }}>
        <h1>{t("label.title", { name: counts?.evaluation.name ?? "…" })}</h1>
        <Link className="button" to="/evaluations/$evalId" params={{ evalId }}>
          {t("label.backToRun")}
        </Link>
      </div>
      {notFound ? (
        <p className="notice bad" role="alert" data-testid="label-not-found">
          {t("label.notFound")}
        </p>
      ) : (
        <ErrorNote error={failure} />
      )}
      {!notFound && (
        <>
          <p className="muted" style={{ marginTop: 0 }}>
            {t("label.intro")}
          </p>
          <div className="row" style={{ alignItems: "center" }}>
            {scales.length > 1 && scale && (
              <label className="inline">
                {t("label.scale")}{" "}
                <select
                  value={scale}
                  onChange={(e) => goTo(search.result, e.target.value as LabelScale)}
                >
                  {scales.map((s) => (
                    <option key={s} value={s}>
                      {t(`label.scale.${s}`)}
                    </option>
                  ))}
                </select>
              </label>
            )}
            {counts && total !== undefined && (
              <>
                <ProgressBar
                  percent={total === 0 ? 0 : (counts.labelled / total) * 100}
                  label={t("label.progress", { labelled: counts.labelled, total })}
                />
                <span data-testid="label-progress" aria-live="polite">
                  {t("label.progress", { labelled: counts.labelled, total })}
                </span>
              </>
            )}
          </div>
          <ErrorNote error={moving} />
          {search.result === undefined && start.data && !start.data.result && (
            <div className="notice good" data-testid="label-done">
              <p style={{ margin: 0 }}>
                {start.data.labelled + start.data.unlabelled === 0
                  ? t("label.noResults")
                  : t("label.done")}
              </p>
              {start.data.labelled > 0 && (
                <button type="button" onClick={() => void reviewFromFirst()}>
                  {t("label.reviewFirst")}
                </button>
              )}
            </div>
          )}
          {item.data && (
            <LabelItemView
              key={`${item.data.result.id}/${item.data.scale}`}
              evaluationId={evalId}
              item={item.data}
              onMove={(id) => goTo(id)}
              onSkip={() => void skip()}
            />
          )}
          {(search.result === undefined ? start.isPending : item.isPending) && (
            <p>{t("common.loading")}</p>
          )}
          <CalibrationPanel evaluationId={evalId} judges={counts?.evaluation.judges ?? []} />
        </>
      )}
    </>
  );
}
