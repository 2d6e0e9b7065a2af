import type { ReactNode } from "react";
import { useI18n } from "../../i18n/i18n";
import type { Agreement } from "./queries";

export type PairAgreement = NonNullable<Agreement["pairs"]>[number];

/**
 * For each pair of contestants, on how many items the reviewers' majority picked and how often it
 * agreed with the judge: on a queue's page and, per queue, on its arena's page.
 */
export function PairAgreementTable({
  pairs,
  caption,
  testId,
}: {
  pairs: readonly PairAgreement[];
  caption: ReactNode;
  testId: string;
}) {
  const { t } = useI18n();
  return (
    <table data-testid={testId}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th>{t("queue.pair")}</th>
          <th>{t("queue.itemsBoth")}</th>
          <th>{t("queue.judgeAgrees")}</th>
        </tr>
      </thead>
      <tbody>
        {pairs.map((p) => (
          <tr key={`${p.a}/${p.b}`}>
            <td>
              {p.a} · {p.b}
            </td>
            <td>{p.items}</td>
            <td>{p.share === null ? "—" : `${Math.round(p.share * 100)}%`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
