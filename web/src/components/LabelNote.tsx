import type { Ref } from "react";

/** The free-text note a person adds to their label. */
export function LabelNote({
  label,
  noteRef,
  maxLength,
  value,
  disabled,
  onChange,
}: {
  label: string;
  noteRef: Ref<HTMLTextAreaElement>;
  maxLength: number;
  value: string;
  disabled?: boolean;
  onChange: (note: string) => void;
}) {
  return (
    <label className="label-note">
      {label}
      <textarea
        ref={noteRef}
        rows={3}
        maxLength={maxLength}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}
