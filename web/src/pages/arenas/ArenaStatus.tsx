import { StatusBadge } from "../../components/StatusBadge";
import { useI18n } from "../../i18n/i18n";

/** An arena's status: PENDING reads "Queued" (waiting for its runs and a worker), the rest as runs'. */
export function ArenaStatus({ status }: { status: string }) {
  const { t } = useI18n();
  if (status === "PENDING") return <span className="badge">{t("arena.status.queued")}</span>;
  return <StatusBadge status={status} />;
}
