import { Link, Outlet } from "@tanstack/react-router";
import { useCan } from "../../api/session";
import { useI18n } from "../../i18n/i18n";

/** `/arenas` with its secondary navigation, like `/evaluations`. */
export function ArenasLayout() {
  const { t } = useI18n();
  const writes = useCan("write");
  return (
    <>
      <nav className="subnav" aria-label={t("nav.arenas")}>
        <Link to="/arenas" activeProps={{ className: "active" }} activeOptions={{ exact: true }}>
          {t("arena.listTitle")}
        </Link>
        {writes && (
          <Link to="/arenas/new" activeProps={{ className: "active" }}>
            {t("arena.new")}
          </Link>
        )}
      </nav>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
