import type { ReactNode } from "react";

/**
 * A button that asks first (the browser's confirm) and acts only on yes: the delete, remove and
 * revoke buttons of the list pages.
 */
export function ConfirmButton({
  question,
  onConfirm,
  disabled,
  label,
  danger = false,
  children,
}: {
  /** What the confirm dialog asks, naming the thing. */
  question: string;
  onConfirm: () => void;
  disabled?: boolean;
  /** The accessible name, when the visible text does not name the thing. */
  label?: string;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      {...(danger ? { className: "danger" } : {})}
      {...(label ? { "aria-label": label } : {})}
      disabled={disabled}
      onClick={() => {
        if (window.confirm(question)) onConfirm();
      }}
    >
      {children}
    </button>
  );
}
