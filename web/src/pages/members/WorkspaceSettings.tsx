import { useState } from "react";
import type { Session } from "../../api/types";
import { switchWorkspace } from "../../api/workspace-choice";
import { ErrorNote } from "../../components/ErrorNote";
import { useI18n } from "../../i18n/i18n";
import { useDeleteWorkspace, useRenameWorkspace } from "./queries";

/** An owner renames a shared workspace, or deletes it with everything in it. */
export function WorkspaceSettings({ workspace }: { workspace: Session["workspace"] }) {
  const { t } = useI18n();
  const [name, setName] = useState(workspace.name);
  const rename = useRenameWorkspace();
  const remove = useDeleteWorkspace();
  return (
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">{t("settings.title")}</h2>
      <form
        className="row"
        onSubmit={(event) => {
          event.preventDefault();
          rename.mutate(name.trim());
        }}
      >
        <label>
          {t("settings.name")}{" "}
          <input
            value={name}
            maxLength={100}
            required
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <button type="submit" disabled={rename.isPending || name.trim() === ""}>
          {t("settings.rename")}
        </button>
      </form>
      <p className="muted">{t("settings.deleteNote")}</p>
      <button
        type="button"
        className="danger"
        disabled={remove.isPending}
        onClick={() => {
          if (!window.confirm(t("settings.confirmDelete", { name: workspace.name }))) return;
          remove.mutate(undefined, { onSuccess: () => switchWorkspace(undefined) });
        }}
      >
        {t("settings.delete")}
      </button>
      <ErrorNote error={rename.error ?? remove.error} />
    </section>
  );
}
