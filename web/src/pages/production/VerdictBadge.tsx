import type { MessageKey } from "../../i18n/strings";
import { useI18n } from "../../i18n/i18n";
import type { GateVerdict } from "./filters";

const TONE: Record<GateVerdict, string> = { pass: "ok", partial: "warn", fail: "bad", skipped: "" };

/** A gate verdict in words, coloured. */
export function VerdictBadge({ verdict }: { verdict: GateVerdict }) {
  const { t } = useI18n();
  return (
    <span className={`badge ${TONE[verdict]}`} data-verdict={verdict}>
      {t(`prod.verdict.${verdict}` as MessageKey)}
    </span>
  );
}
