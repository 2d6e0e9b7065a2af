import { type CSSProperties, type FormEvent, useState } from "react";
import { ApiError } from "../../api/client";
import { ErrorNote } from "../../components/ErrorNote";
import type { MessageKey } from "../../i18n/strings";
import { useI18n } from "../../i18n/i18n";
import {
  bodyOf,
  FORM_FEEDBACK,
  FORM_JUDGES,
  FORM_VERDICTS,
  type MonitorDraft,
} from "./monitor-form";
import { useSaveMonitor } from "./queries";

/** The form's label for each field the server may name in a refusal. */
const FIELD_LABELS: Record<string, MessageKey> = {
  name: "mon.form.name",
  filter: "mon.form.filter",
  sample_rate: "mon.form.sample",
  judges: "mon.form.judges",
  max_calls_per_minute: "mon.form.perMinute",
  max_calls_per_day: "mon.form.perDay",
};

/** The fields a 400 named (issues[].path). */
function issuesOf(error: unknown): { path: string; message: string }[] {
  if (!ApiError.isInstance(error)) return [];
  const issues = (error.body as { issues?: unknown } | undefined)?.issues;
  return Array.isArray(issues) ? (issues as { path: string; message: string }[]) : [];
}

/** The monitor form: a new monitor, or changes to one (`id`). Owns only the draft. */
export function MonitorForm({
  id,
  initial,
  onDone,
}: {
  id?: string;
  initial: MonitorDraft;
  onDone(): void;
}) {
  const { t } = useI18n();
  const save = useSaveMonitor();
  const [draft, setDraft] = useState(initial);
  const [badLine, setBadLine] = useState<number | undefined>();
  const set = <K extends keyof MonitorDraft>(key: K, value: MonitorDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = bodyOf(draft);
    if ("badLine" in body) {
      setBadLine(body.badLine);
      return;
    }
    setBadLine(undefined);
    save.mutate({ ...(id ? { id } : {}), body }, { onSuccess: onDone });
  };

  return (
    <form onSubmit={submit} aria-labelledby="monitor-form-title" data-testid="monitor-form">
      <h2 id="monitor-form-title">{t(id ? "mon.form.title.edit" : "mon.form.title.new")}</h2>
      <div className="row" style={{ flexWrap: "wrap", gap: "0.75rem" }}>
        <label className="field">
          {t("mon.form.name")}
          <input
            value={draft.name}
            required
            maxLength={256}
            onChange={(e) => set("name", e.target.value)}
          />
        </label>
        <label className="row" style={{ alignItems: "center", gap: "0.4rem" }}>
          <input
            type="checkbox"
            checked={draft.enabled}
            onChange={(e) => set("enabled", e.target.checked)}
          />
          {t("mon.form.enabled")}
        </label>
      </div>
      <fieldset>
        <legend>{t("mon.form.filter")}</legend>
        <div className="row" style={{ flexWrap: "wrap", gap: "0.75rem" }}>
          <label className="field">
            {t("mon.form.service")}
            <input value={draft.service} onChange={(e) => set("service", e.target.value)} />
          </label>
          <label className="field">
            {t("mon.form.collection")}
            <input value={draft.collection} onChange={(e) => set("collection", e.target.value)} />
          </label>
          <label className="field">
            {t("mon.form.model")}
            <input value={draft.model} onChange={(e) => set("model", e.target.value)} />
          </label>
        </div>
        <label className="field">
          {t("mon.form.metadata")}
          <textarea
            rows={2}
            value={draft.metadata}
            aria-invalid={badLine !== undefined}
            onChange={(e) => set("metadata", e.target.value)}
          />
        </label>
        {badLine !== undefined && (
          <p className="notice bad" role="alert">
            {t("mon.form.metadataLine", { line: badLine })}
          </p>
        )}
        <CheckboxGroup
          legend={t("mon.form.gate")}
          options={FORM_VERDICTS}
          checked={draft.gate}
          onChange={(gate) => set("gate", gate)}
          labelOf={(verdict) => t(`prod.verdict.${verdict}` as MessageKey)}
          labelStyle={{ marginRight: "0.75rem" }}
        />
        <label className="field">
          {t("mon.form.feedback")}
          <select
            value={draft.feedback}
            onChange={(e) => set("feedback", e.target.value as MonitorDraft["feedback"])}
          >
            {FORM_FEEDBACK.map((choice) => (
              <option key={choice} value={choice}>
                {t(`mon.form.feedback.${choice || "none"}` as MessageKey)}
              </option>
            ))}
          </select>
        </label>
      </fieldset>
      <label className="field">
        {t("mon.form.sample")}
        <input
          type="number"
          step="any"
          value={draft.samplePercent}
          onChange={(e) => set("samplePercent", e.target.value)}
        />
      </label>
      <CheckboxGroup
        legend={t("mon.form.judges")}
        options={FORM_JUDGES}
        checked={draft.judges}
        onChange={(judges) => set("judges", judges)}
        labelOf={(judge) => t(`mon.form.judge.${judge}` as MessageKey)}
        labelStyle={{ display: "block" }}
      />
      <div className="row" style={{ flexWrap: "wrap", gap: "0.75rem" }}>
        <label className="field">
          {t("mon.form.perMinute")}
          <input
            type="number"
            min={0}
            step={1}
            value={draft.perMinute}
            onChange={(e) => set("perMinute", e.target.value)}
          />
        </label>
        <label className="field">
          {t("mon.form.perDay")}
          <input
            type="number"
            min={0}
            step={1}
            value={draft.perDay}
            onChange={(e) => set("perDay", e.target.value)}
          />
        </label>
      </div>
      <p className="muted">{t("mon.form.budgetNote")}</p>
      {issuesOf(save.error).length > 0 ? (
        <ul className="notice bad" role="alert" data-testid="monitor-form-issues">
          {issuesOf(save.error).map((issue) => (
            <li key={issue.path}>
              {t(FIELD_LABELS[issue.path.split(".")[0] ?? ""] ?? "mon.form.name")}: {issue.message}
            </li>
          ))}
        </ul>
      ) : (
        <ErrorNote error={save.error} />
      )}
      <div className="row" style={{ gap: "0.5rem" }}>
        <button type="submit" className="primary" disabled={save.isPending}>
          {t("mon.form.save")}
        </button>
        <button type="button" onClick={onDone}>
          {t("mon.form.cancel")}
        </button>
      </div>
    </form>
  );
}

/** A fieldset of checkboxes choosing some of `options`; a box turned on adds its option last. */
function CheckboxGroup<T extends string>({
  legend,
  options,
  checked,
  onChange,
  labelOf,
  labelStyle,
}: {
  legend: string;
  options: readonly T[];
  checked: readonly T[];
  onChange(next: T[]): void;
  labelOf(option: T): string;
  labelStyle: CSSProperties;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option} style={labelStyle}>
          <input
            type="checkbox"
            checked={checked.includes(option)}
            onChange={(e) => {
              const rest = checked.filter((x) => x !== option);
              onChange(e.target.checked ? [...rest, option] : rest);
            }}
          />{" "}
          {labelOf(option)}
        </label>
      ))}
    </fieldset>
  );
}
