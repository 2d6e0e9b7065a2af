import { expect, it } from "vitest";
import { createProgressReporter, formatDuration, progressLine } from "./progress.js";

function sink() {
  const chunks: string[] = [];
  return {
    chunks,
    stream: { write: (chunk: string) => chunks.push(chunk) } as unknown as NodeJS.WritableStream,
  };
}

it("draws a bar with count, percent and ETA", () => {
  expect(progressLine({ completed: 6, total: 24, percent: 25, eta_seconds: 65 }, 8)).toBe(
    "[##------]  6/24   25%  ETA 1:05",
  );
  expect(progressLine({ completed: 0, total: 4, percent: 0, eta_seconds: null }, 4)).toBe(
    "[----]  0/4    0%",
  );
  expect(formatDuration(3723)).toBe("1:02:03");
});

it("redraws in place on a terminal", () => {
  const out = sink();
  const reporter = createProgressReporter({ stream: out.stream, tty: true });
  reporter.update({ completed: 1, total: 2, percent: 50, eta_seconds: 3 }, "RUNNING");
  reporter.update({ completed: 2, total: 2, percent: 100, eta_seconds: null }, "COMPLETED");
  reporter.done();
  expect(out.chunks).toHaveLength(3);
  expect(out.chunks[0]?.startsWith("\r[")).toBe(true);
  expect(out.chunks[0]?.endsWith("]  1/2   50%  ETA 0:03  RUNNING\u001b[K")).toBe(true);
  expect(out.chunks[2]).toBe("\n");
});

it("prints occasional lines elsewhere: on a new count once the interval passed, and the last one", () => {
  const out = sink();
  let clock = 0;
  const reporter = createProgressReporter({
    stream: out.stream,
    tty: false,
    intervalMs: 1000,
    now: () => clock,
  });
  const at = (completed: number, t: number, status = "RUNNING") => {
    clock = t;
    reporter.update({ completed, total: 10, percent: completed * 10, eta_seconds: null }, status);
  };
  at(0, 0);
  at(1, 100);
  at(2, 200);
  at(2, 1500);
  at(3, 1600);
  at(10, 1700, "COMPLETED");
  reporter.done();
  expect(out.chunks.map((line) => line.match(/\d+\/10/)?.[0])).toEqual(["0/10", "2/10", "10/10"]);
  expect(out.chunks.every((line) => line.endsWith("\n") && !line.includes("\r"))).toBe(true);
});
