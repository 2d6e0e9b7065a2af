import { ApiError } from "../api/client";
import { useI18n } from "../i18n/i18n";

/** An error as a person reads it: the server's own message (a 409 names the run's status). */
export function ErrorNote({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (!error) return null;
  // A role that cannot do this gets one plain sentence, not the route's needs.
  if (ApiError.isInstance(error) && error.code === "forbidden_role") {
    const role = (error.body as { role?: string } | undefined)?.role;
    const known =
      role === "owner" || role === "editor" || role === "annotator" || role === "viewer";
    return (
      <p className="notice" role="alert">
        {known && role === "annotator"
          ? t("ws.annotatorOnly")
          : t("ws.forbidden", { role: known ? t(`role.${role}`) : (role ?? "") })}
      </p>
    );
  }
  const message =
    ApiError.isInstance(error) || error instanceof Error ? error.message : String(error);
  return (
    <p className="notice bad" role="alert">
      {t("common.error", { message })}
    </p>
  );
}
