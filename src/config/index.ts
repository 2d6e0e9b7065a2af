export { configuredClients } from "./clients.js";
export {
  isLlmConfigured,
  type LoadConfigOptions,
  loadConfig,
  type RagjudgeConfig,
} from "./load.js";
