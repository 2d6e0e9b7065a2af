import type { ReactNode } from "react";

/** One radio per option, each in its label: a score, pass or fail, or one answer of a pair. */
export function RadioChoices<T extends string | number | boolean>({
  name,
  options,
  withValue = false,
  isChecked,
  onChoose,
  labelOf,
}: {
  name: string;
  options: readonly T[];
  /** Whether each radio carries its option as its `value`. */
  withValue?: boolean;
  isChecked: (option: T) => boolean;
  onChoose: (option: T) => void;
  labelOf: (option: T) => ReactNode;
}) {
  return options.map((option) => (
    <label key={String(option)}>
      <input
        type="radio"
        name={name}
        value={withValue ? String(option) : undefined}
        checked={isChecked(option)}
        onChange={() => onChoose(option)}
      />
      {labelOf(option)}
    </label>
  ));
}
