import type { Session, WorkspaceRole } from "../../api/types";
import { ErrorNote } from "../../components/ErrorNote";
import { formatDate } from "../../components/format";
import { useI18n } from "../../i18n/i18n";
import { useMembers, useRemoveMember, useSetRole } from "./queries";
import { ROLES } from "./roles";
import { ConfirmButton } from "../../components/ConfirmButton";

/** Who is in the workspace and as what; an owner changes roles and removes people here. */
export function MemberList({ session, manage }: { session: Session; manage: boolean }) {
  const { t, language } = useI18n();
  const members = useMembers();
  const setRole = useSetRole();
  const remove = useRemoveMember();
  return (
    <section aria-labelledby="members-list">
      <h2 id="members-list" className="visually-hidden">
        {t("nav.members")}
      </h2>
      <ErrorNote error={members.error ?? setRole.error ?? remove.error} />
      <div className="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">{t("members.name")}</th>
              <th scope="col">{t("members.role")}</th>
              <th scope="col">{t("members.joined")}</th>
              {manage && <th scope="col">{t("list.actions")}</th>}
            </tr>
          </thead>
          <tbody>
            {(members.data ?? []).map((m) => {
              const me = m.user_id === session.user.id;
              return (
                <tr key={m.user_id} data-testid="member-row" data-role={m.role}>
                  <td>{me ? t("members.you", { name: m.name }) : m.name}</td>
                  <td>
                    {manage && !me ? (
                      <select
                        aria-label={t("members.roleOf", { name: m.name })}
                        value={m.role}
                        disabled={setRole.isPending}
                        onChange={(event) =>
                          setRole.mutate({
                            userId: m.user_id,
                            role: event.target.value as WorkspaceRole,
                          })
                        }
                      >
                        {ROLES.map((role) => (
                          <option key={role} value={role}>
                            {t(`role.${role}`)}
                          </option>
                        ))}
                      </select>
                    ) : (
                      t(`role.${m.role}`)
                    )}
                  </td>
                  <td>{formatDate(m.joined_at, language)}</td>
                  {manage && (
                    <td>
                      {!me && (
                        <ConfirmButton
                          danger
                          disabled={remove.isPending}
                          label={t("members.removeLabel", { name: m.name })}
                          question={t("members.confirmRemove", { name: m.name })}
                          onConfirm={() => remove.mutate(m.user_id)}
                        >
                          {t("members.remove")}
                        </ConfirmButton>
                      )}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
