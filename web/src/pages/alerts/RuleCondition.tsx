import { useI18n } from "../../i18n/i18n";
import { judgeKindName } from "../../i18n/name-strings";
import { formatAlertValue } from "./alert-words";
import type { AlertRule } from "./queries";

/** A rule's condition in one sentence: "Gate pass rate below 90% over the last 15 minutes…". */
export function RuleCondition({ rule }: { rule: AlertRule }) {
  const { t } = useI18n();
  const filter = [rule.filter.service, rule.filter.collection, rule.filter.model].filter(Boolean);
  return (
    <>
      {t("alerts.condition", {
        metric:
          rule.metric === "judge_mean" && rule.judge
            ? t("alerts.metric.judgeNamed", { judge: judgeKindName(rule.judge, t) })
            : t(`alerts.metric.${rule.metric}`),
        comparison: t(`alerts.comparison.${rule.comparison}`),
        threshold: formatAlertValue(rule.metric, rule.threshold),
        window: rule.window_minutes,
        count: rule.min_count,
        counted: t(`alerts.counted.${rule.metric}`),
      })}
      {filter.length > 0 && ` · ${filter.join(" · ")}`}
    </>
  );
}

/** Firing, OK or paused, as a badge. */
export function RuleState({ rule }: { rule: AlertRule }) {
  const { t } = useI18n();
  if (!rule.enabled) return <span className="badge">{t("alerts.state.off")}</span>;
  return rule.state === "firing" ? (
    <span className="badge bad" data-state="firing">
      {t("alerts.state.firing")}
    </span>
  ) : (
    <span className="badge ok" data-state="ok">
      {t("alerts.state.ok")}
    </span>
  );
}
