import { useState } from "react";
import { useWorkspaces } from "../../api/queries";
import type { Session } from "../../api/types";
import { switchWorkspace } from "../../api/workspace-choice";
import { NewWorkspaceDialog } from "../../components/NewWorkspaceDialog";
import { useI18n } from "../../i18n/i18n";

const NEW = "new";

/**
 * The workspace the app acts in, with the role there, and a way to another one or a new one.
 * Shown only to someone in more than one workspace; everyone else finds "New workspace" on the
 * members page.
 */
export function WorkspaceSwitcher({ session }: { session: Session }) {
  const { t } = useI18n();
  const workspaces = useWorkspaces();
  const [creating, setCreating] = useState(false);
  const items = workspaces.data ?? [];
  if (items.length < 2) return null;
  const current = session.workspace;
  return (
    <div className="workspace-switcher">
      <select
        aria-label={t("ws.label")}
        value={current.id}
        data-testid="workspace-switcher"
        onChange={(event) => {
          if (event.target.value === NEW) setCreating(true);
          else switchWorkspace(event.target.value);
        }}
      >
        {items.map((w) => (
          <option key={w.id} value={w.id}>
            {t("ws.option", { name: w.name, role: t(`role.${w.role}`) })}
          </option>
        ))}
        <option value={NEW}>{t("ws.new")}</option>
      </select>
      <NewWorkspaceDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
