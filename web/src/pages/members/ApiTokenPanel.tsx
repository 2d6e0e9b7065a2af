import { ErrorNote } from "../../components/ErrorNote";
import { ShownOnce } from "../../components/ShownOnce";
import { useI18n } from "../../i18n/i18n";
import { useCreateToken } from "./queries";

/** An API token for me in this workspace: shown once, for the login page or a script. */
export function ApiTokenPanel() {
  const { t } = useI18n();
  const create = useCreateToken();
  return (
    <section aria-labelledby="token-title">
      <h2 id="token-title">{t("token.title")}</h2>
      <p className="muted">{t("token.intro")}</p>
      {create.data ? (
        <ShownOnce
          testId="new-token"
          title={t("token.title")}
          note={t("token.shown")}
          secret={create.data.token}
          onDone={() => create.reset()}
        />
      ) : (
        <button type="button" disabled={create.isPending} onClick={() => create.mutate()}>
          {t("token.create")}
        </button>
      )}
      <ErrorNote error={create.error} />
    </section>
  );
}
