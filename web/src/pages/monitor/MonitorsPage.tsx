import { useState } from "react";
import { useCan } from "../../api/session";
import { ErrorNote } from "../../components/ErrorNote";
import { formatPercent } from "../../components/format";
import type { MessageKey } from "../../i18n/strings";
import { useI18n } from "../../i18n/i18n";
import { draftOf, EMPTY_DRAFT } from "./monitor-form";
import { MonitorForm } from "./MonitorForm";
import { type Monitor, useDeleteMonitor, useMonitors } from "./queries";

/** `/production/monitors`: the user's monitors, what each did in a day, and their form. */
export function MonitorsPage() {
  const writes = useCan("write");
  const { t } = useI18n();
  const monitors = useMonitors();
  const remove = useDeleteMonitor();
  // Which form is open: a new monitor, one being edited, or none.
  const [editing, setEditing] = useState<Monitor | "new" | undefined>();

  return (
    <section aria-labelledby="monitors-title">
      <h1 id="monitors-title">{t("mon.list.title")}</h1>
      <p className="muted">{t("mon.list.intro")}</p>
      {writes && editing === undefined && (
        <button type="button" className="primary" onClick={() => setEditing("new")}>
          {t("mon.list.new")}
        </button>
      )}
      {editing !== undefined && (
        <MonitorForm
          key={editing === "new" ? "new" : editing.id}
          {...(editing === "new" ? {} : { id: editing.id })}
          initial={editing === "new" ? EMPTY_DRAFT : draftOf(editing)}
          onDone={() => setEditing(undefined)}
        />
      )}
      <ErrorNote error={monitors.error ?? remove.error} />
      {monitors.data?.length === 0 && <p className="muted">{t("mon.list.empty")}</p>}
      <ul className="plain-list" style={{ listStyle: "none", padding: 0 }}>
        {monitors.data?.map((monitor) => (
          <li key={monitor.id} className="card" data-testid="monitor-row" data-name={monitor.name}>
            <div className="row" style={{ flexWrap: "wrap", gap: "0.5rem", alignItems: "center" }}>
              <strong>{monitor.name}</strong>
              {!monitor.enabled && <span className="badge">{t("mon.list.paused")}</span>}
              <span className="muted">
                {formatPercent(monitor.sample_rate)} ·{" "}
                {monitor.judges.map((j) => t(`mon.form.judge.${j}` as MessageKey)).join(", ")}
              </span>
            </div>
            <p className="muted" data-testid="monitor-counts" style={{ margin: "0.25rem 0" }}>
              {t("mon.list.counts", {
                matched: monitor.last_24h.matched,
                sampledOut: monitor.last_24h.sampled_out,
                skipped: monitor.last_24h.skipped,
                done: monitor.last_24h.done,
                failed: monitor.last_24h.failed,
                queued: monitor.last_24h.queued + monitor.last_24h.running,
              })}
            </p>
            <div className="row" style={{ gap: "0.5rem" }}>
              <button type="button" disabled={!writes} onClick={() => setEditing(monitor)}>
                {t("mon.list.edit")}
              </button>
              <button
                type="button"
                disabled={!writes}
                onClick={() => {
                  if (window.confirm(t("mon.list.deleteConfirm", { name: monitor.name })))
                    remove.mutate(monitor.id);
                }}
              >
                {t("mon.list.delete")}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
