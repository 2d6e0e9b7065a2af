import type { MessageKey } from "../../i18n/strings";
import { useI18n } from "../../i18n/i18n";
import { formatScore } from "../../components/format";
import type { ProductionAnswer } from "./queries";
import { reasoningOf } from "./judgment-reasoning";

/** What each monitor's judges made of the answer, beside the gate and the feedback. */
export function JudgmentsPanel({ judgments }: { judgments: ProductionAnswer["judgments"] }) {
  const { t, say } = useI18n();
  return (
    <section aria-labelledby="judgments-title">
      <h2 id="judgments-title">{t("mon.judgments")}</h2>
      {judgments.length === 0 && <p className="muted">{t("mon.judgments.none")}</p>}
      <ul style={{ listStyle: "none", padding: 0 }}>
        {judgments.map((judgment) => (
          <li key={judgment.monitor_id} className="card" data-testid="judgment">
            <strong>{judgment.monitor_name}</strong>{" "}
            <span className="muted">{t(`mon.judgment.${judgment.status}` as MessageKey)}</span>
            {judgment.skip_reason && <p className="muted">{judgment.skip_reason}</p>}
            {Object.entries(judgment.results).map(([judge, result]) => (
              <div key={judge} data-testid="judge-result" data-judge={judge}>
                {result.outcome === "ok" ? (
                  <p style={{ margin: "0.25rem 0" }}>
                    {t("mon.judge.score", { judge, score: formatScore(result.score) })} ·{" "}
                    {t(result.passed ? "mon.judge.passed" : "mon.judge.notPassed")}
                  </p>
                ) : (
                  <p className="notice bad" style={{ margin: "0.25rem 0" }}>
                    {t("mon.judge.error", { judge, message: result.error ?? "" })}
                  </p>
                )}
                {reasoningOf(result.verdict, say).map((line, i) => (
                  <p
                    key={i}
                    className="muted"
                    style={{ margin: "0 0 0.25rem", whiteSpace: "pre-wrap" }}
                  >
                    {line}
                  </p>
                ))}
              </div>
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}
