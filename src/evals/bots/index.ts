// Public face of evals/bots: the bots an evaluation run asks, built-in or reached over HTTP.

export { botAnswerFromAsk, builtinBotFor } from "./builtin-bot.js";
export {
  createHttpBot,
  displayUrl,
  HTTP_BOT_DEFAULTS,
  type HttpBotOptions,
  HttpBotOptionsError,
} from "./http-bot.js";
export { createPolicyFetch } from "./policy-fetch.js";
export { createRunBot, type RunBotDeps, type RunBotSpec } from "./run-bot.js";
export { suppliedAnswerBot } from "./supplied-bot.js";
export {
  type BotNetworkConfig,
  BotNetworkConfigSchema,
  type BotNetworkPolicy,
  BotNetworkPolicyError,
  checkBotUrl,
  OPEN_BOT_NETWORK,
  restrictedBotNetwork,
} from "./network-policy.js";
export {
  BotRegistrationError,
  BotUrlSchema,
  type RegisterBotInput,
  RegisterBotSchema,
  registerBot,
} from "./registry.js";
export {
  type HttpBotReply,
  HttpBotReplySchema,
  type HttpBotRequest,
  parseHttpBotReply,
} from "./http-contract.js";
export {
  type Bot,
  type BotAnswer,
  type BotAskOptions,
  BotError,
  BOT_ERROR_KINDS,
  type BotErrorKind,
  type BotSource,
  type BuiltinOutcome,
} from "./types.js";
