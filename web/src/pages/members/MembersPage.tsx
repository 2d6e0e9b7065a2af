import { useState } from "react";
import { roleCan, useSession } from "../../api/session";
import { ErrorNote } from "../../components/ErrorNote";
import { NewWorkspaceDialog } from "../../components/NewWorkspaceDialog";
import { useI18n } from "../../i18n/i18n";
import { ApiTokenPanel } from "./ApiTokenPanel";
import { Invitations } from "./Invitations";
import { MemberList } from "./MemberList";
import { WorkspaceSettings } from "./WorkspaceSettings";

/**
 * `/members`: who is in the current workspace and as what. An owner of a shared workspace also
 * invites, changes roles, removes, renames and deletes; everyone can make an API token here.
 */
export function MembersPage() {
  const { t } = useI18n();
  const session = useSession();
  const [creating, setCreating] = useState(false);
  if (!session.data) {
    return (
      <main id="main" tabIndex={-1}>
        <ErrorNote error={session.error} />
      </main>
    );
  }
  const { workspace } = session.data;
  const manage = roleCan(workspace.role, "manage") && !workspace.personal;
  return (
    <main id="main" tabIndex={-1}>
      <div className="row" style={{ justifyContent: "space-between" }}>
        <h1>{t("members.title", { name: workspace.name })}</h1>
        <button type="button" onClick={() => setCreating(true)}>
          {t("ws.new")}
        </button>
      </div>
      <NewWorkspaceDialog open={creating} onClose={() => setCreating(false)} />
      {workspace.personal ? (
        <p className="muted">{t("members.personal")}</p>
      ) : (
        !manage && <p className="muted">{t("members.readOnly")}</p>
      )}
      <MemberList session={session.data} manage={manage} />
      {manage && <Invitations />}
      <ApiTokenPanel />
      {manage && <WorkspaceSettings workspace={workspace} />}
    </main>
  );
}
