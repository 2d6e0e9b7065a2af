import type { components } from "../../api/schema";
import type { MessageKey } from "../../i18n/strings";

export type Incomparability = components["schemas"]["EvaluationComparison"]["incomparable"][number];

type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/**
 * One reason two runs' scores are not comparable, in the reader's language. Question sets are
 * named by `setName` (the list the page has), judges and scales by their words.
 */
export function incomparableText(
  reason: Incomparability,
  t: Translate,
  setName: (id: string | null) => string,
): string {
  const judges = (kinds: readonly string[]) =>
    kinds.length === 0
      ? t("compare.noJudge")
      : kinds.map((kind) => t(`compare.judge.${kind}` as MessageKey)).join(", ");
  switch (reason.code) {
    case "question_set":
      return t("compare.why.question_set", {
        base: setName(reason.base),
        head: setName(reason.head),
      });
    case "question_set_version": {
      const version = (n: number | null) =>
        n === null ? t("versions.beforeVersions") : t("versions.label", { n });
      return t("compare.why.question_set_version", {
        base: version(reason.base),
        head: version(reason.head),
      });
    }
    case "judges":
      return t("compare.why.judges", { base: judges(reason.base), head: judges(reason.head) });
    case "scale": {
      const scales = (values: readonly string[]) =>
        values.length === 0
          ? t("compare.noJudge")
          : values.map((scale) => t(`compare.scale.${scale}` as MessageKey)).join(", ");
      return t("compare.why.scale", { base: scales(reason.base), head: scales(reason.head) });
    }
    case "judge_model":
      return t("compare.why.judge_model", { base: reason.base, head: reason.head });
    case "judge_settings":
      return t("compare.why.judge_settings", { judges: judges(reason.judges) });
  }
}
