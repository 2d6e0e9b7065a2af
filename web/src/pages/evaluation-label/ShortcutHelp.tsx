import { useI18n } from "../../i18n/i18n";
import type { LabelItem } from "./queries";

/** The keys, always listed beside the form; `?` shows or hides the list. */
export function ShortcutHelp({
  scale,
  open,
  onToggle,
}: {
  scale: LabelItem["scale"];
  open: boolean;
  onToggle: (open: boolean) => void;
}) {
  const { t } = useI18n();
  const keys: [string, string][] = [
    scale === "pass_fail"
      ? ["p / f", t("label.key.pass")]
      : [scale === "1-10" ? "1 … 9, 0" : "1 … 5", t(`label.key.score.${scale}`)],
    ["Enter", t("label.key.save")],
    ["n / →", t("label.key.next")],
    ["b / ←", t("label.key.previous")],
    ["s", t("label.key.skip")],
    ["?", t("label.key.help")],
    ["Esc", t("label.key.escape")],
  ];
  return (
    <details
      className="card shortcut-help"
      open={open}
      onToggle={(e) => onToggle((e.target as HTMLDetailsElement).open)}
      data-testid="shortcut-help"
    >
      <summary>{t("label.shortcuts")}</summary>
      <dl>
        {keys.map(([key, what]) => (
          <div key={key} className="row" style={{ gap: "0.5rem" }}>
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd style={{ margin: 0 }}>{what}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
