import { useState } from "react";
import type { WorkspaceRole } from "../../api/types";
import { ErrorNote } from "../../components/ErrorNote";
import { formatDate } from "../../components/format";
import { ShownOnce } from "../../components/ShownOnce";
import { useI18n } from "../../i18n/i18n";
import { useInvitations, useInvite, useWithdrawInvitation } from "./queries";
import { ROLES } from "./roles";

const EXPIRY_DAYS = [1, 3, 7, 14] as const;

/** An owner's invitations: make a one-time link for a role, see those waiting, withdraw one. */
export function Invitations() {
  const { t, language } = useI18n();
  const invitations = useInvitations(true);
  const invite = useInvite();
  const withdraw = useWithdrawInvitation();
  const [role, setRole] = useState<WorkspaceRole>("editor");
  const [days, setDays] = useState<number>(3);
  const created = invite.data;
  return (
    <section aria-labelledby="invitations-title">
      <h2 id="invitations-title">{t("invites.title")}</h2>
      <p className="muted">{t("invites.intro")}</p>
      <form
        className="row"
        onSubmit={(event) => {
          event.preventDefault();
          invite.mutate({ role, expires_in_hours: days * 24 });
        }}
      >
        <label>
          {t("invites.role")}{" "}
          <select
            aria-label={t("invites.role")}
            value={role}
            onChange={(e) => setRole(e.target.value as WorkspaceRole)}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {`${t(`role.${r}`)}: ${t(`role.${r}.help`)}`}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("invites.expiry")}{" "}
          <select
            aria-label={t("invites.expiry")}
            value={days}
            onChange={(e) => setDays(Number(e.target.value))}
          >
            {EXPIRY_DAYS.map((n) => (
              <option key={n} value={n}>
                {n === 1 ? t("invites.oneDay") : t("invites.days", { n })}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={invite.isPending}>
          {t("invites.create")}
        </button>
      </form>
      <ErrorNote error={invite.error ?? withdraw.error ?? invitations.error} />
      {created && (
        <ShownOnce
          testId="invitation-link"
          title={t("invites.linkTitle")}
          note={t("invites.linkNote", { date: formatDate(created.expires_at, language) })}
          secret={created.url}
          onDone={() => invite.reset()}
        />
      )}
      {invitations.data?.length === 0 && <p className="muted">{t("invites.none")}</p>}
      <ul>
        {(invitations.data ?? []).map((i) => {
          const date = formatDate(i.expires_at, language);
          const shownRole = t(`role.${i.role}`);
          return (
            <li key={i.id} data-testid="invitation">
              {t("invites.pending", { role: shownRole, date })}{" "}
              <button
                type="button"
                disabled={withdraw.isPending}
                aria-label={t("invites.withdrawLabel", { role: shownRole, date })}
                onClick={() => withdraw.mutate(i.id)}
              >
                {t("invites.withdraw")}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
