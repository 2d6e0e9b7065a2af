import { useI18n } from "../../i18n/i18n";

/** A new rule's signing secret, shown this once; "Done" forgets it. */
export function SecretShownOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const { t } = useI18n();
  return (
    <div className="notice" role="status" data-testid="new-rule-secret">
      <strong>{t("alerts.createdTitle")}</strong>
      <p style={{ margin: "0.25rem 0" }}>{t("alerts.createdNote")}</p>
      <code style={{ overflowWrap: "anywhere", display: "block" }}>{secret}</code>
      <button type="button" style={{ marginTop: "0.5rem" }} onClick={onDone}>
        {t("alerts.done")}
      </button>
    </div>
  );
}
