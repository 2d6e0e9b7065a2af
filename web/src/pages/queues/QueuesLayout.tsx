import { Link, Outlet } from "@tanstack/react-router";
import { useI18n } from "../../i18n/i18n";

/** `/queues` with its secondary navigation, like `/arenas`. */
export function QueuesLayout() {
  const { t } = useI18n();
  return (
    <>
      <nav className="subnav" aria-label={t("nav.queues")}>
        <Link to="/queues" activeProps={{ className: "active" }} activeOptions={{ exact: true }}>
          {t("queue.listTitle")}
        </Link>
      </nav>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
