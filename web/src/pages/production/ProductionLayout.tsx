import { Link, Outlet } from "@tanstack/react-router";
import { useI18n } from "../../i18n/i18n";

/** `/production` with its secondary navigation: answers, the monitor, monitors, ingest keys, alerts. */
export function ProductionLayout() {
  const { t } = useI18n();
  return (
    <>
      <nav className="subnav" aria-label={t("nav.production")}>
        <Link
          to="/production/answers"
          activeProps={{ className: "active" }}
          activeOptions={{ exact: false, includeSearch: false }}
        >
          {t("prod.answers")}
        </Link>
        <Link to="/production/monitor" activeProps={{ className: "active" }}>
          {t("mon.nav.charts")}
        </Link>
        <Link to="/production/monitors" activeProps={{ className: "active" }}>
          {t("mon.nav.monitors")}
        </Link>
        <Link to="/production/ingest-keys" activeProps={{ className: "active" }}>
          {t("prod.keys")}
        </Link>
        <Link
          to="/production/alerts"
          activeProps={{ className: "active" }}
          activeOptions={{ exact: false }}
        >
          {t("prod.alerts")}
        </Link>
      </nav>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
