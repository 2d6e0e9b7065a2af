import { useI18n } from "../../i18n/i18n";

interface StoredJudge {
  name: string;
  outcome: string;
  raw_score: number | null;
  passed: boolean | null;
  reasoning: string | null;
}

/**
 * The judge's verdict on a queue item as the server sends it: a run's judges (score, pass,
 * reasoning), an arena pair's pick (as shown: A, B or a tie), or a production answer's gate.
 */
export function VerdictView({ judge }: { judge: Record<string, unknown> | null }) {
  const { t } = useI18n();
  if (!judge) return <p className="muted">{t("queue.noVerdict")}</p>;
  if (Array.isArray(judge.judges)) {
    return (
      <ul style={{ margin: 0 }}>
        {(judge.judges as StoredJudge[]).map((j) => (
          <li key={j.name}>
            <strong>{j.name}</strong>:{" "}
            {j.outcome === "ok"
              ? `${j.raw_score ?? "—"} · ${j.passed === null ? "—" : j.passed ? t("label.pass") : t("label.fail")}`
              : t("queue.judgeFailed")}
            {j.reasoning && (
              <p className="muted" style={{ margin: "0.2rem 0 0" }}>
                {j.reasoning}
              </p>
            )}
          </li>
        ))}
      </ul>
    );
  }
  if ("outcome" in judge) {
    const outcome = judge.outcome as "a" | "b" | "tie" | null;
    return (
      <p style={{ margin: 0 }}>
        {t("queue.judgePicked")}:{" "}
        <strong>{outcome ? t(`queue.choice.${outcome}`) : t("queue.noVerdict")}</strong>
      </p>
    );
  }
  if ("gate_status" in judge) {
    return (
      <p style={{ margin: 0 }}>
        {t("queue.gate")}: <strong>{String(judge.gate_status)}</strong>
      </p>
    );
  }
  return <p className="muted">{t("queue.noVerdict")}</p>;
}
