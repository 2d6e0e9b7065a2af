import { useQueryClient } from "@tanstack/react-query";
import { Link, Outlet, useNavigate, useRouterState } from "@tanstack/react-router";
import { useEffect } from "react";
import { api } from "../../api/client";
import { useI18n } from "../../i18n/i18n";

/** The top bar (sections, language switch, sign out) around every page. */
export function AppShell() {
  const { t, language, setLanguage } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const location = useRouterState({ select: (s) => s.location });
  const onLogin = location.pathname === "/login";

  // Any 401 from the API means the session is gone: go to the login page, then come back.
  useEffect(() => {
    const toLogin = () => {
      if (window.location.pathname === "/login") return;
      const next = window.location.pathname + window.location.search;
      queryClient.clear();
      void navigate({ to: "/login", search: { next } });
    };
    window.addEventListener("ragjudge:unauthorized", toLogin);
    return () => window.removeEventListener("ragjudge:unauthorized", toLogin);
  }, [navigate, queryClient]);

  const logout = async () => {
    await api.DELETE("/api/v1/session", {});
    queryClient.clear();
    await navigate({ to: "/login", search: {} });
  };

  return (
    <>
      <a className="skip-link" href="#main">
        {t("app.skip")}
      </a>
      <header className="topbar">
        <span className="brand">{t("app.title")}</span>
        {!onLogin && (
          <nav aria-label="main">
            <Link
              to="/evaluations/list"
              activeProps={{ className: "active" }}
              activeOptions={{ exact: false }}
            >
              {t("nav.evaluations")}
            </Link>
            <Link to="/collections" activeProps={{ className: "active" }}>
              {t("nav.collections")}
            </Link>
            <Link
              to="/arenas"
              activeProps={{ className: "active" }}
              activeOptions={{ exact: false }}
            >
              {t("nav.arenas")}
            </Link>
            <Link
              to="/queues"
              activeProps={{ className: "active" }}
              activeOptions={{ exact: false }}
            >
              {t("nav.queues")}
            </Link>
            <Link
              to="/production/answers"
              activeProps={{ className: "active" }}
              activeOptions={{ exact: false }}
            >
              {t("nav.production")}
            </Link>
          </nav>
        )}
        {onLogin && <span style={{ flex: 1 }} />}
        <button
          type="button"
          lang={language === "zh" ? "en" : "zh"}
          aria-label={t("nav.languageLabel")}
          onClick={() => setLanguage(language === "zh" ? "en" : "zh")}
        >
          {t("nav.language")}
        </button>
        {!onLogin && (
          <button type="button" onClick={() => void logout()}>
            {t("nav.logout")}
          </button>
        )}
      </header>
      <Outlet />
    </>
  );
}
