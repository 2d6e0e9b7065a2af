// `ragjudge/ai-sdk`: the evidence gate for apps built on the Vercel AI SDK (`ai` 7, an optional
// peer dependency that the core entry never imports).
export {
  type CallParams,
  RagjudgeBlockedError,
  ragjudgeGuard,
  type RagjudgeGuardMode,
  type RagjudgeGuardOptions,
  type RagjudgeSource,
} from "./guard-middleware.js";
