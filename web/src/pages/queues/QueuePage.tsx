import { Link, useParams } from "@tanstack/react-router";
import { ApiError } from "../../api/client";
import { ErrorNote } from "../../components/ErrorNote";
import { ProgressBar } from "../../components/ProgressBar";
import { useI18n } from "../../i18n/i18n";
import { AdjudicationPanel } from "./AdjudicationPanel";
import { PairAgreementTable } from "./PairAgreementTable";
import { type Agreement, useAgreement, useQueue } from "./queries";

const num = (value: number | null | undefined, digits = 2) =>
  value === null || value === undefined ? "—" : value.toFixed(digits);

/**
 * `/queues/{id}`: a queue's progress overall and per reviewer, the agreement between people
 * (α per criterion with its interval, κ per pair of reviewers, the items they disagree on most),
 * and adjudication of those items side by side.
 */
export function QueuePage() {
  const { t } = useI18n();
  const { queueId } = useParams({ from: "/queues/$queueId" });
  const queue = useQueue(queueId);
  const q = queue.data;
  const agreement = useAgreement(queueId, q !== undefined);
  // An annotator may review but not read others' labels: the agreement is not theirs to see.
  const mayRead = !(ApiError.isInstance(agreement.error) && agreement.error.status === 403);

  return (
    <section aria-labelledby="queue-title">
      <ErrorNote error={queue.error} />
      {queue.isPending && <p>{t("common.loading")}</p>}
      {q && (
        <>
          <div className="row" style={{ justifyContent: "space-between", alignItems: "center" }}>
            <h1 id="queue-title">{q.name}</h1>
            <Link className="button primary" to="/queues/$queueId/review" params={{ queueId }}>
              {t("queue.review")}
            </Link>
          </div>
          <p className="muted">
            {t(`queue.kind.${q.kind}`)} · {t(`queue.rubric.${q.rubric.kind}`)} ·{" "}
            {t("queue.perItemIs", { n: q.reviewers_per_item })}
          </p>
          <section aria-labelledby="progress-title">
            <h2 id="progress-title">{t("queue.progress")}</h2>
            <ProgressBar
              percent={
                q.progress.slots === 0 ? 0 : (q.progress.slots_filled / q.progress.slots) * 100
              }
              label={t("queue.progress")}
            />
            <p data-testid="queue-complete">
              {t("queue.completeOf", { complete: q.complete, items: q.items })}
            </p>
            <table data-testid="reviewer-progress">
              <thead>
                <tr>
                  <th>{t("queue.reviewer")}</th>
                  <th>{t("queue.labelled")}</th>
                </tr>
              </thead>
              <tbody>
                {q.progress.reviewers.map((r) => (
                  <tr key={r.user_id}>
                    <td>{r.name}</td>
                    <td>
                      {r.labelled} / {q.items}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          {mayRead && (
            <>
              <ErrorNote error={agreement.error} />
              {agreement.data && (
                <>
                  <AgreementView agreement={agreement.data} />
                  <AdjudicationPanel queueId={queueId} rubric={q.rubric} />
                </>
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}

function AgreementView({ agreement }: { agreement: Agreement }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="agreement-title">
      <h2 id="agreement-title">{t("queue.agreement")}</h2>
      <p className="muted">{t("queue.agreementIntro")}</p>
      <table data-testid="alpha-table">
        <thead>
          <tr>
            <th>{t("queue.criterion")}</th>
            <th>{t("queue.alpha")}</th>
            <th>{t("queue.interval")}</th>
            <th>{t("queue.itemsPaired")}</th>
          </tr>
        </thead>
        <tbody>
          {agreement.criteria.map((c) => (
            <tr key={c.criterion}>
              <td>{c.criterion}</td>
              <td data-testid={`alpha-${c.criterion}`}>{num(c.alpha, 3)}</td>
              <td>{c.alpha_ci ? `${num(c.alpha_ci[0])} – ${num(c.alpha_ci[1])}` : "—"}</td>
              <td>{c.items}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {agreement.criteria.map((c) =>
        c.kappas.length === 0 ? null : (
          <table key={c.criterion} data-testid="kappa-table">
            <caption>{t("queue.kappaOf", { criterion: c.criterion })}</caption>
            <thead>
              <tr>
                <th>{t("queue.pair")}</th>
                <th>{t("queue.itemsBoth")}</th>
                <th>{t("queue.same")}</th>
                <th>κ</th>
              </tr>
            </thead>
            <tbody>
              {c.kappas.map((k) => (
                <tr key={`${k.a}/${k.b}`}>
                  <td>
                    {k.a} · {k.b}
                  </td>
                  <td>{k.n}</td>
                  <td>{k.agreement === null ? "—" : `${Math.round(k.agreement * 100)}%`}</td>
                  <td>{num(k.kappa)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ),
      )}
      {agreement.pairs && agreement.pairs.length > 0 && (
        <PairAgreementTable
          testId="pair-agreement"
          caption={t("queue.pairsVsJudge")}
          pairs={agreement.pairs}
        />
      )}
    </section>
  );
}
