import { type ReactNode, useEffect, useRef } from "react";

/** A modal dialog on the native <dialog>: focus is trapped and Escape closes it. */
export function Modal({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} aria-labelledby="modal-title" onClose={onClose} onCancel={onClose}>
      <h2 id="modal-title" style={{ marginTop: 0 }}>
        {title}
      </h2>
      {open && children}
    </dialog>
  );
}
