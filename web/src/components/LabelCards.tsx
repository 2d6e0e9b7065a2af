import type { ReactNode } from "react";
import { useI18n } from "../i18n/i18n";

// The two cards beside an item a person labels (a run's result, a queue's item): their label,
// then the judges' verdict.

/** The person's own label: its choices, note and buttons are the children. */
export function YourLabelCard({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  return (
    <section className="card" aria-labelledby="your-label-title">
      <h3 id="your-label-title">{t("label.yourLabel")}</h3>
      {children}
    </section>
  );
}

/** The judges' verdict beside a person's label, kept hidden until the label is saved. */
export function VerdictCard({ revealed, children }: { revealed: boolean; children: ReactNode }) {
  const { t } = useI18n();
  return (
    <section className="card" aria-labelledby="verdict-title" aria-live="polite">
      <h3 id="verdict-title">{t("label.compare")}</h3>
      {revealed ? (
        children
      ) : (
        <p className="muted" data-testid="verdict-hidden">
          {t("label.hidden")}
        </p>
      )}
    </section>
  );
}
