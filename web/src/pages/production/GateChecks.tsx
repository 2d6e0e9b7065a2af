import { explainCheck } from "../../../../src/gate/explain";
import { en, type MessageKey } from "../../i18n/strings";
import { useI18n } from "../../i18n/i18n";
import type { ProductionAnswer } from "./queries";

type Check = ProductionAnswer["gate"]["checks"][number];

/** The gate's checks, each named in words with why it failed (explainCheck) or that it passed. */
export function GateChecks({ checks }: { checks: readonly Check[] }) {
  const { t, language } = useI18n();
  const title = (name: string) => {
    const key = `prod.check.${name}` as MessageKey;
    return Object.hasOwn(en, key) ? t(key) : t("prod.check.other");
  };
  return (
    <ul className="check-list" data-testid="gate-checks">
      {checks.map((check) => (
        <li key={check.name} data-check={check.name} data-status={check.status}>
          <strong>{title(check.name)}</strong>
          {": "}
          {check.status === "pass"
            ? t("prod.checkPassed")
            : check.status === "skipped"
              ? t("prod.checkSkipped")
              : explainCheck(check, language)}
        </li>
      ))}
    </ul>
  );
}
