import { asCodedMessage, type CodedMessage } from "../../../../src/text/user-messages";
import { useI18n } from "../../i18n/i18n";
import type { LabelItem } from "./queries";

/** The person's label and each judge's verdict on the same result, side by side. */
export function JudgesBeside({
  item,
  mine,
}: {
  item: LabelItem;
  mine: { score: number | null; passed: boolean | null; note: string } | null;
}) {
  const { t, say } = useI18n();
  const yours =
    item.scale === "pass_fail"
      ? mine?.passed === null || mine?.passed === undefined
        ? "—"
        : mine.passed
          ? t("label.pass")
          : t("label.fail")
      : String(mine?.score ?? "—");
  return (
    <div className="table-scroll">
      <table data-testid="judge-verdict">
        <tbody>
          <tr>
            <th scope="row">{t("label.you")}</th>
            <td>
              <strong>{yours}</strong>
              {mine?.note && <div className="muted">{mine.note}</div>}
            </td>
          </tr>
          {(item.judges ?? []).map(({ name, scale, result }) => {
            const reasoning = reasoningOf(result.verdict, say);
            return (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>
                  {result.outcome !== "ok" ? (
                    <span className="badge bad">{t("label.judgeError")}</span>
                  ) : (
                    <>
                      <strong>
                        {t("label.judgeOnScale", {
                          score: Number(result.raw_score.toFixed(2)),
                          scale: scale ?? "pass/fail",
                        })}
                      </strong>{" "}
                      <span className={`badge ${result.passed ? "ok" : "bad"}`}>
                        {result.passed ? t("card.passed") : t("card.failed")}
                      </span>
                      {item.scale !== "pass_fail" && scale !== item.scale && (
                        <span className="muted"> ({t("label.otherScale")})</span>
                      )}
                    </>
                  )}
                  {reasoning && <div className="muted">{reasoning}</div>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** A judge's reasoning; the offline judge's coded reason in the reader's language when it has one. */
function reasoningOf(verdict: unknown, say: (message: CodedMessage) => string): string | undefined {
  if (!verdict || typeof verdict !== "object") return undefined;
  const v = verdict as Record<string, unknown>;
  const coded = typeof v.reason_message === "object" ? asCodedMessage(v.reason_message) : null;
  if (coded && typeof v.reasoning !== "string") return say(coded);
  for (const key of ["reasoning", "reason", "analysis", "explanation"]) {
    const value = v[key];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return undefined;
}
