import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { api, must } from "../api/client";
import { switchWorkspace } from "../api/workspace-choice";
import { useI18n } from "../i18n/i18n";
import { ErrorNote } from "./ErrorNote";
import { Modal } from "./Modal";

/** Names a new shared workspace; once made, the app moves into it, on its members page. */
export function NewWorkspaceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useI18n();
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: () => must(api.POST("/api/v1/workspaces", { body: { name: name.trim() } })),
    onSuccess: (workspace) => switchWorkspace(workspace.id, "/members"),
  });
  return (
    <Modal open={open} title={t("ws.newTitle")} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <p className="muted">{t("ws.newIntro")}</p>
        <label>
          {t("ws.name")}
          <input
            value={name}
            onChange={(event) => setName(event.target.value)}
            maxLength={100}
            required
          />
        </label>
        <ErrorNote error={create.error} />
        <div className="row" style={{ marginTop: "0.75rem" }}>
          <button
            type="submit"
            className="primary"
            disabled={create.isPending || name.trim() === ""}
          >
            {t("ws.create")}
          </button>
          <button type="button" onClick={onClose}>
            {t("common.cancel")}
          </button>
        </div>
      </form>
    </Modal>
  );
}
