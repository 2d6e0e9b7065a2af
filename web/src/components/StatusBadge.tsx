import { en, type MessageKey } from "../i18n/strings";
import { useI18n } from "../i18n/i18n";

const TONE: Record<string, string> = {
  COMPLETED: "ok",
  SCORED: "ok",
  pass: "ok",
  RUNNING: "run",
  PENDING: "",
  PAUSED: "warn",
  warn: "warn",
  partial: "warn",
  FAILED: "bad",
  CANCELLED: "",
  BOT_ERROR: "bad",
  JUDGE_ERROR: "bad",
  fail: "bad",
};

/** A run's or a result's status, or a gate verdict, as a coloured label with its words. */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useI18n();
  const key = `status.${status}` as MessageKey;
  // Every status and gate verdict has its words; a newer server's unknown one shows as named.
  const label = Object.hasOwn(en, key) ? t(key) : status;
  return <span className={`badge ${TONE[status] ?? ""}`}>{label}</span>;
}
