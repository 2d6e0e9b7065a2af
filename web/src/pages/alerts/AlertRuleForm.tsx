import { type FormEvent, useState } from "react";
import { ApiError } from "../../api/client";
import { ErrorNote } from "../../components/ErrorNote";
import { FieldError } from "../../components/FieldError";
import { useI18n } from "../../i18n/i18n";
import { judgeKindName } from "../../i18n/name-strings";
import {
  ALERT_JUDGES,
  ALERT_METRICS,
  type AlertJudge,
  type AlertMetric,
  fieldErrors,
  isShare,
} from "./alert-words";
import { useCreateAlertRule } from "./queries";
import { type Draft, draftForMetric, EMPTY_DRAFT, ruleOf } from "./rule-draft";
import { SecretShownOnce } from "./SecretShownOnce";

/** The new-rule form; once created, the secret is shown here once (it lives in the mutation). */
export function AlertRuleForm() {
  const { t } = useI18n();
  const create = useCreateAlertRule();
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);
  const errors =
    ApiError.isInstance(create.error) && create.error.status === 400
      ? fieldErrors(create.error.body)
      : {};
  const set = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(ruleOf(draft), { onSuccess: () => setDraft(EMPTY_DRAFT) });
  };

  const field = (
    key: string,
    label: string,
    input: (props: { id: string; "aria-describedby": string }) => React.ReactNode,
  ) => (
    <label className="field">
      {label}
      {input({ id: `alert-${key}`, "aria-describedby": `alert-${key}-error` })}
      <FieldError id={`alert-${key}-error`} message={errors[key]} />
    </label>
  );

  return (
    <section aria-labelledby="new-rule-title">
      <h2 id="new-rule-title">{t("alerts.new")}</h2>
      <form
        className="row"
        onSubmit={submit}
        style={{ flexWrap: "wrap", gap: "0.75rem", marginBottom: "1rem" }}
      >
        {field("name", t("alerts.field.name"), (p) => (
          <input
            {...p}
            value={draft.name}
            maxLength={100}
            onChange={(e) => set({ name: e.target.value })}
          />
        ))}
        {field("metric", t("alerts.field.metric"), (p) => (
          <select
            {...p}
            value={draft.metric}
            onChange={(e) => set(draftForMetric(e.target.value as AlertMetric))}
          >
            {ALERT_METRICS.map((metric) => (
              <option key={metric} value={metric}>
                {t(`alerts.metric.${metric}`)}
              </option>
            ))}
          </select>
        ))}
        {draft.metric === "judge_mean" &&
          field("judge", t("alerts.field.judge"), (p) => (
            <select
              {...p}
              value={draft.judge}
              onChange={(e) => set({ judge: e.target.value as AlertJudge })}
            >
              {ALERT_JUDGES.map((judge) => (
                <option key={judge} value={judge}>
                  {judgeKindName(judge, t)}
                </option>
              ))}
            </select>
          ))}
        {field("comparison", t("alerts.field.comparison"), (p) => (
          <select
            {...p}
            value={draft.comparison}
            onChange={(e) => set({ comparison: e.target.value as "below" | "above" })}
          >
            <option value="below">{t("alerts.comparison.below")}</option>
            <option value="above">{t("alerts.comparison.above")}</option>
          </select>
        ))}
        {field(
          "threshold",
          isShare(draft.metric) ? t("alerts.field.thresholdShare") : t("alerts.field.thresholdMs"),
          (p) => (
            <input
              {...p}
              type="number"
              step="any"
              value={draft.threshold}
              onChange={(e) => set({ threshold: e.target.value })}
            />
          ),
        )}
        {field("window_minutes", t("alerts.field.window"), (p) => (
          <input
            {...p}
            type="number"
            value={draft.window}
            onChange={(e) => set({ window: e.target.value })}
          />
        ))}
        {field("min_count", t("alerts.field.minCount"), (p) => (
          <input
            {...p}
            type="number"
            value={draft.minCount}
            onChange={(e) => set({ minCount: e.target.value })}
          />
        ))}
        {field("cooldown_minutes", t("alerts.field.cooldown"), (p) => (
          <input
            {...p}
            type="number"
            value={draft.cooldown}
            onChange={(e) => set({ cooldown: e.target.value })}
          />
        ))}
        {field("filter.service", t("alerts.field.service"), (p) => (
          <input
            {...p}
            value={draft.service}
            maxLength={200}
            onChange={(e) => set({ service: e.target.value })}
          />
        ))}
        {field("filter.collection", t("alerts.field.collection"), (p) => (
          <input
            {...p}
            value={draft.collection}
            maxLength={200}
            onChange={(e) => set({ collection: e.target.value })}
          />
        ))}
        {field("filter.model", t("alerts.field.model"), (p) => (
          <input
            {...p}
            value={draft.model}
            maxLength={200}
            onChange={(e) => set({ model: e.target.value })}
          />
        ))}
        {field("webhook_url", t("alerts.field.webhook"), (p) => (
          <input
            {...p}
            type="url"
            style={{ width: "min(26rem, 80vw)" }}
            value={draft.webhook}
            maxLength={2000}
            placeholder="https://hooks.example.com/…"
            onChange={(e) => set({ webhook: e.target.value })}
          />
        ))}
        <div className="row" style={{ alignItems: "flex-end" }}>
          <button type="submit" className="primary" disabled={create.isPending}>
            {t("alerts.create")}
          </button>
        </div>
      </form>
      {Object.keys(errors).length === 0 && <ErrorNote error={create.error} />}
      {create.data && <SecretShownOnce secret={create.data.secret} onDone={() => create.reset()} />}
    </section>
  );
}
