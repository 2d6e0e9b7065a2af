import { useState } from "react";
import { useI18n } from "../i18n/i18n";

/** A secret (a link, a token) shown this once, with a copy button; "Done" forgets it. */
export function ShownOnce({
  title,
  note,
  secret,
  testId,
  onDone,
}: {
  title: string;
  note: string;
  secret: string;
  testId: string;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  return (
    <div className="notice" role="status" data-testid={testId}>
      <strong>{title}</strong>
      <p style={{ margin: "0.25rem 0" }}>{note}</p>
      <code style={{ overflowWrap: "anywhere", display: "block" }}>{secret}</code>
      <div className="row" style={{ marginTop: "0.5rem" }}>
        <button
          type="button"
          onClick={() =>
            void navigator.clipboard.writeText(secret).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? t("invites.copied") : t("invites.copy")}
        </button>
        <button type="button" onClick={onDone}>
          {t("invites.done")}
        </button>
      </div>
    </div>
  );
}
