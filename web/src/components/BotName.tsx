import { useQuery } from "@tanstack/react-query";
import { api, must } from "../api/client";
import { useI18n } from "../i18n/i18n";
import { botLabelOf } from "./bot-label";

/** The user's registered bots by id, to name a run's bot (a run keeps only its id). */
function useBotNames() {
  return useQuery({
    queryKey: ["bots"],
    queryFn: async () => (await must(api.GET("/api/v1/bots"))).items,
    select: (items) => new Map(items.map((b) => [b.id, b.name])),
    staleTime: 60_000,
  });
}

/** Which bot a run asked, in words: "built-in, gpt-4o-mini", a registered bot's name, ... */
export function BotName({ run }: { run: { bot_id: string; config: Record<string, unknown> } }) {
  const { t } = useI18n();
  const names = useBotNames();
  const label = botLabelOf(run, names.data ?? new Map<string, string>());
  switch (label.kind) {
    case "builtin":
      return (
        <>
          {label.model
            ? t("list.bot.builtinModel", { model: label.model })
            : t("list.bot.builtinExtractive")}
        </>
      );
    case "registered":
      return <>{label.name}</>;
    case "http":
      return <span style={{ wordBreak: "break-all" }}>{label.url}</span>;
    case "answers":
      return <>{t("list.bot.answers")}</>;
    default:
      return <>{label.id}</>;
  }
}
