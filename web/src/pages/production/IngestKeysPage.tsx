import { type FormEvent, useRef, useState } from "react";
import { useCan } from "../../api/session";
import { ErrorNote } from "../../components/ErrorNote";
import { formatDate } from "../../components/format";
import { useI18n } from "../../i18n/i18n";
import { useCreateIngestKey, useIngestKeys, useRevokeIngestKey } from "./queries";
import { ConfirmButton } from "../../components/ConfirmButton";
import { ListTable } from "../../components/ListTable";

/** `/production/ingest-keys`: create a write-only key (shown once), list and revoke keys. */
export function IngestKeysPage() {
  const writes = useCan("write");
  const { t, language } = useI18n();
  const keys = useIngestKeys();
  const create = useCreateIngestKey();
  const revoke = useRevokeIngestKey();
  const [label, setLabel] = useState("");
  const [copied, setCopied] = useState(false);
  const keyText = useRef<HTMLElement>(null);
  // The new key lives only in the mutation's result: once dismissed, nothing shows it again.
  const shown = create.data;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setCopied(false);
    create.mutate(label.trim(), { onSuccess: () => setLabel("") });
  };
  const copy = async (key: string) => {
    try {
      await navigator.clipboard.writeText(key);
      setCopied(true);
    } catch {
      // No clipboard access (an insecure origin, a denied permission): select the key instead,
      // so the person can copy it by hand.
      const node = keyText.current;
      if (node) window.getSelection()?.selectAllChildren(node);
    }
  };

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">{t("keys.title")}</h1>
      <p className="muted">{t("keys.intro")}</p>
      {writes && (
        <form
          className="row"
          onSubmit={submit}
          style={{ flexWrap: "wrap", gap: "0.75rem", marginBottom: "1rem" }}
        >
          <label className="field">
            {t("keys.label")}
            <input value={label} maxLength={200} onChange={(e) => setLabel(e.target.value)} />
          </label>
          <div className="row" style={{ alignItems: "flex-end" }}>
            <button type="submit" className="primary" disabled={create.isPending}>
              {t("keys.create")}
            </button>
          </div>
        </form>
      )}
      <ErrorNote error={create.error} />
      {shown && (
        <div className="notice" role="status" data-testid="new-key">
          <strong>{t("keys.createdTitle")}</strong>
          <p style={{ margin: "0.25rem 0" }}>{t("keys.createdNote")}</p>
          <code ref={keyText} style={{ overflowWrap: "anywhere", display: "block" }}>
            {shown.key}
          </code>
          <div className="row" style={{ gap: "0.5rem", marginTop: "0.5rem" }}>
            <button type="button" onClick={() => void copy(shown.key)}>
              {copied ? t("keys.copied") : t("keys.copy")}
            </button>
            <button type="button" onClick={() => create.reset()}>
              {t("keys.done")}
            </button>
          </div>
        </div>
      )}
      <ErrorNote error={keys.error ?? revoke.error} />
      <ListTable
        items={keys.data}
        empty={t("keys.empty")}
        columns={[t("keys.col.label"), t("keys.col.created"), t("keys.col.state")]}
        actions={t("keys.revoke")}
        row={(key) => (
          <tr key={key.id} data-testid="key-row" data-revoked={key.revoked_at !== null}>
            <td>{key.label || t("keys.noLabel")}</td>
            <td>{formatDate(key.created_at, language)}</td>
            <td>
              {key.revoked_at === null
                ? t("keys.active")
                : t("keys.revokedAt", { when: formatDate(key.revoked_at, language) })}
            </td>
            <td>
              {key.revoked_at === null && (
                <ConfirmButton
                  question={t("keys.revokeConfirm", {
                    label: key.label || t("keys.noLabel"),
                  })}
                  disabled={!writes || revoke.isPending}
                  onConfirm={() => revoke.mutate(key.id)}
                >
                  {t("keys.revoke")}
                </ConfirmButton>
              )}
            </td>
          </tr>
        )}
      />
    </section>
  );
}
