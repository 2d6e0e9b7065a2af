import { Link, useParams } from "@tanstack/react-router";
import { ErrorNote } from "../../components/ErrorNote";
import { formatDate } from "../../components/format";
import { useI18n } from "../../i18n/i18n";
import { formatAlertValue } from "./alert-words";
import { type AlertEvent, useAlertEvents, useAlertRule } from "./queries";
import { RuleCondition, RuleState } from "./RuleCondition";

type Delivery = NonNullable<AlertEvent["fired_delivery"]>;

function useDeliveryWords() {
  const { t } = useI18n();
  return (delivery: Delivery | null): string => {
    if (!delivery || delivery.outcome === "pending") return t("alerts.delivery.pending");
    const detail = delivery.detail ?? "";
    switch (delivery.outcome) {
      case "delivered":
        return delivery.attempts === 1
          ? t("alerts.delivery.deliveredOnce")
          : t("alerts.delivery.delivered", { attempts: delivery.attempts });
      case "refused":
        return t("alerts.delivery.refused", { detail });
      default:
        return t("alerts.delivery.failed", { attempts: delivery.attempts, detail });
    }
  };
}

/** `/production/alerts/$ruleId`: one rule and its history, each episode fired and resolved. */
export function AlertRulePage() {
  const { t, language } = useI18n();
  const { ruleId } = useParams({ from: "/production/alerts/$ruleId" });
  const rule = useAlertRule(ruleId);
  const events = useAlertEvents(ruleId);
  const deliveryWords = useDeliveryWords();

  return (
    <section aria-labelledby="rule-title">
      <p>
        <Link to="/production/alerts">{t("alerts.back")}</Link>
      </p>
      <ErrorNote error={rule.error ?? events.error} />
      {rule.data && (
        <>
          <h1 id="rule-title">
            {rule.data.name} <RuleState rule={rule.data} />
          </h1>
          <p className="muted">
            <RuleCondition rule={rule.data} />
          </p>
        </>
      )}
      <h2>{t("alerts.history")}</h2>
      {events.data && events.data.length === 0 && (
        <p className="muted">{t("alerts.historyEmpty")}</p>
      )}
      {rule.data && events.data && events.data.length > 0 && (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{t("alerts.col.fired")}</th>
                <th scope="col">{t("alerts.col.firedValue")}</th>
                <th scope="col">{t("alerts.col.resolved")}</th>
                <th scope="col">{t("alerts.col.delivery")}</th>
              </tr>
            </thead>
            <tbody>
              {events.data.map((event) => (
                <tr
                  key={event.id}
                  data-testid="alert-event"
                  data-state={event.resolved_at ? "resolved" : "firing"}
                >
                  <td>{formatDate(event.fired_at, language)}</td>
                  <td>
                    {t("alerts.lastValue", {
                      value: formatAlertValue(rule.data.metric, event.value),
                      count: event.count,
                    })}
                  </td>
                  <td>
                    {event.resolved_at
                      ? formatDate(event.resolved_at, language)
                      : t("alerts.stillFiring")}
                  </td>
                  <td>
                    <div>
                      {t("alerts.delivery.fired", {
                        outcome: deliveryWords(event.fired_delivery),
                      })}
                    </div>
                    {event.resolved_at && (
                      <div>
                        {t("alerts.delivery.resolved", {
                          outcome: deliveryWords(event.resolved_delivery),
                        })}
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
