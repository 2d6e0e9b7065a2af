import type { ReactNode } from "react";

/**
 * A list page's table: a sentence when the list is empty, else a scrolling table with a header per
 * column and a last, unlabelled-on-screen column for each row's buttons. Nothing while loading.
 */
export function ListTable<T>({
  items,
  empty,
  columns,
  actions,
  row,
}: {
  items: readonly T[] | undefined;
  /** Said when the list is empty. */
  empty: string;
  columns: readonly string[];
  /** The accessible name of the buttons' column. */
  actions: string;
  /** One `<tr>` for an item, with a cell per column and one for its buttons. */
  row(item: T): ReactNode;
}) {
  if (!items) return null;
  if (items.length === 0) return <p className="muted">{empty}</p>;
  return (
    <div className="table-scroll">
      <table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">{actions}</span>
            </th>
          </tr>
        </thead>
        <tbody>{items.map(row)}</tbody>
      </table>
    </div>
  );
}
