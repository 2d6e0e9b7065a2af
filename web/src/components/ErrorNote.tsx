import { ApiError } from "../api/client";
import { useI18n } from "../i18n/i18n";

/** An error as a person reads it: the server's own message (a 409 names the run's status). */
export function ErrorNote({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (!error) return null;
  const message =
    ApiError.isInstance(error) || error instanceof Error ? error.message : String(error);
  return (
    <p className="notice bad" role="alert">
      {t("common.error", { message })}
    </p>
  );
}
