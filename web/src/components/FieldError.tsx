/** A form field's error, placed beside the field and tied to it by `aria-describedby={id}`. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <span id={id} className="field-error" role="alert">
      {message}
    </span>
  ) : null;
}

/** A field's attributes while it has an error: invalid, and described by the error's `id`. */
export function describedByError(id: string, message: string | undefined) {
  return message ? { "aria-invalid": true, "aria-describedby": id } : {};
}
