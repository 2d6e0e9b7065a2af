import type { Progress } from "../../evals/runs/index.js";

/** "1:05", "12:00", "1:02:03": an ETA as a person reads it. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/** "[########------------]  12/24  50%  ETA 0:05" */
export function progressLine(progress: Progress, width = 24): string {
  const filled = Math.round((width * Math.min(100, progress.percent)) / 100);
  const bar = `[${"#".repeat(filled)}${"-".repeat(width - filled)}]`;
  const count = `${progress.completed}/${progress.total}`;
  const eta = progress.eta_seconds === null ? "" : `  ETA ${formatDuration(progress.eta_seconds)}`;
  return `${bar}  ${count}  ${String(progress.percent).padStart(3)}%${eta}`;
}

export interface ProgressReporter {
  update(progress: Progress, status: string): void;
  /** Ends the bar's line (TTY) so later output starts on a fresh one. */
  done(): void;
}

/**
 * Progress on stderr: a bar redrawn in place on a terminal; elsewhere (CI logs, pipes) a plain line
 * when the count changes, at most every `intervalMs`, and always for the last item.
 */
export function createProgressReporter(options: {
  stream: NodeJS.WritableStream;
  tty: boolean;
  label?: string;
  intervalMs?: number;
  now?: () => number;
}): ProgressReporter {
  const now = options.now ?? Date.now;
  const interval = options.intervalMs ?? 5_000;
  const label = options.label ? `${options.label} ` : "";
  let drawn = false;
  let lastCompleted = -1;
  let lastAt = -Infinity;
  let lastStatus = "";
  return {
    update(progress, status) {
      const line = `${label}${progressLine(progress)}  ${status}`;
      if (options.tty) {
        options.stream.write(`\r${line}\u001b[K`);
        drawn = true;
        return;
      }
      const changed = progress.completed !== lastCompleted || status !== lastStatus;
      const due = now() - lastAt >= interval || progress.completed === progress.total;
      if (!changed || (!due && status === lastStatus)) return;
      options.stream.write(`${line}\n`);
      lastCompleted = progress.completed;
      lastStatus = status;
      lastAt = now();
    },
    done() {
      if (drawn) options.stream.write("\n");
      drawn = false;
    },
  };
}
