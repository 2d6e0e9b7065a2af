// Public face of jobs/: durable background work on pg-boss, in the same database in both modes.
export {
  DEFAULT_JOBS_TIMING,
  type Jobs,
  type JobsTiming,
  type QueueName,
  QUEUES,
  startJobs,
} from "./boss.js";
export { startWorkLoop, type WorkJob, type WorkLoop, type WorkLoopOptions } from "./work-loop.js";
