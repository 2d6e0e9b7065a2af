/** A progress bar that screen readers announce as a percentage. */
export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div className="row" style={{ alignItems: "center", gap: "0.4rem" }}>
      <div
        className="progress"
        role="progressbar"
        aria-label={label}
        aria-valuenow={value}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div style={{ width: `${value}%` }} />
      </div>
      <span className="muted">{value}%</span>
    </div>
  );
}
