/** A form's last lines: the error of the form as a whole, if any, and its submit button. */
export function FormSubmit({
  error,
  pending,
  label,
}: {
  error: string | undefined;
  pending: boolean;
  label: string;
}) {
  return (
    <>
      {error && (
        <p className="notice bad" role="alert">
          {error}
        </p>
      )}
      <div>
        <button className="primary" type="submit" disabled={pending}>
          {label}
        </button>
      </div>
    </>
  );
}
