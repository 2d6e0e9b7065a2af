import { Link } from "@tanstack/react-router";
import { useCan } from "../../api/session";
import { ErrorNote } from "../../components/ErrorNote";
import { useI18n } from "../../i18n/i18n";
import { AlertRuleForm } from "./AlertRuleForm";
import { formatAlertValue } from "./alert-words";
import { useAlertRules, useDeleteAlertRule, useSetAlertRuleEnabled } from "./queries";
import { RuleCondition, RuleState } from "./RuleCondition";
import { ConfirmButton } from "../../components/ConfirmButton";
import { ListTable } from "../../components/ListTable";

/** `/production/alerts`: the rules with their state, and a form for a new one. */
export function AlertRulesPage() {
  const writes = useCan("write");
  const { t } = useI18n();
  const rules = useAlertRules();
  const setEnabled = useSetAlertRuleEnabled();
  const remove = useDeleteAlertRule();

  return (
    <section aria-labelledby="alerts-title">
      <h1 id="alerts-title">{t("alerts.title")}</h1>
      <p className="muted">{t("alerts.intro")}</p>
      <ErrorNote error={rules.error ?? setEnabled.error ?? remove.error} />
      <ListTable
        items={rules.data}
        empty={t("alerts.empty")}
        columns={[
          t("alerts.col.name"),
          t("alerts.col.condition"),
          t("alerts.col.state"),
          t("alerts.col.last"),
        ]}
        actions={t("alerts.delete")}
        row={(rule) => (
          <tr key={rule.id} data-testid="alert-rule-row">
            <td>
              <Link to="/production/alerts/$ruleId" params={{ ruleId: rule.id }}>
                {rule.name}
              </Link>
            </td>
            <td>
              <RuleCondition rule={rule} />
            </td>
            <td>
              <RuleState rule={rule} />
            </td>
            <td>
              {rule.last_count === null
                ? t("alerts.notMeasured")
                : t("alerts.lastValue", {
                    value: formatAlertValue(rule.metric, rule.last_value),
                    count: rule.last_count,
                  })}
            </td>
            <td>
              <div className="row" style={{ gap: "0.5rem" }}>
                <button
                  type="button"
                  disabled={!writes || setEnabled.isPending}
                  onClick={() => setEnabled.mutate({ id: rule.id, enabled: !rule.enabled })}
                >
                  {rule.enabled ? t("alerts.pause") : t("alerts.resume")}
                </button>
                <ConfirmButton
                  question={t("alerts.deleteConfirm", { name: rule.name })}
                  disabled={!writes || remove.isPending}
                  onConfirm={() => remove.mutate(rule.id)}
                >
                  {t("alerts.delete")}
                </ConfirmButton>
              </div>
            </td>
          </tr>
        )}
      />
      {writes && <AlertRuleForm />}
    </section>
  );
}
