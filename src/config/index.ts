export { type BotNetworkConfig, BotNetworkConfigSchema } from "./bots.js";
export { configuredClients } from "./clients.js";
export {
  isLlmConfigured,
  type LoadConfigOptions,
  loadConfig,
  type ProductionConfig,
  type RagjudgeConfig,
} from "./load.js";
export {
  type UserClients,
  userClients,
  type WorkerClients,
  workerClients,
} from "./user-clients.js";
export { writeConfigSetting } from "./write-setting.js";
