import { useSearch } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
// The server's own rule for where a login may land (a pure file, shared so the two cannot differ).
import { safeLandingPath } from "../../../../src/text/landing-path";
import { api } from "../../api/client";
import { CommandText } from "../../components/CommandText";
import { useI18n } from "../../i18n/i18n";

/** Paste an API token to get a session cookie; the login link `ragjudge serve` prints skips this. */
export function LoginPage() {
  const { t } = useI18n();
  const search = useSearch({ from: "/login" });
  const [token, setToken] = useState("");
  // Why a login link logged no one in (the server's `/login?error=`).
  const codeError =
    search.error === "invalid_code"
      ? t("login.codeFailed")
      : search.error === "link_from_elsewhere"
        ? t("login.codeFromElsewhere")
        : undefined;
  const [failed, setFailed] = useState<string | undefined>(codeError);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const { response } = await api.POST("/api/v1/session", { body: { token } });
    setBusy(false);
    if (response.status === 429) {
      // The server refuses every attempt from this address for a while, right ones too: say so.
      const seconds = Number(response.headers.get("Retry-After") ?? "60");
      setFailed(t("login.limited", { minutes: Math.max(1, Math.ceil(seconds / 60)) }));
      return;
    }
    if (!response.ok) {
      setFailed(t("login.failed"));
      return;
    }
    // A full navigation: the next page starts with the new session and an empty cache.
    window.location.assign(safeLandingPath(search.next, window.location.origin));
  };

  return (
    <main id="main" className="login">
      <h1>{t("login.title")}</h1>
      <p>
        <CommandText text={t("login.intro")} />
      </p>
      <form onSubmit={(e) => void submit(e)}>
        <label style={{ width: "100%" }}>
          {t("login.token")}
          <input
            name="token"
            type="password"
            autoComplete="off"
            required
            value={token}
            onChange={(e) => setToken(e.target.value)}
            aria-invalid={failed !== undefined}
            aria-describedby={failed ? "login-error" : undefined}
          />
        </label>
        {failed && (
          <p id="login-error" className="field-error" role="alert">
            <CommandText text={failed} />
          </p>
        )}
        <p>
          <button className="primary" type="submit" disabled={busy || token.trim() === ""}>
            {t("login.submit")}
          </button>
        </p>
      </form>
    </main>
  );
}
