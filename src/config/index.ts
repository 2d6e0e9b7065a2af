export { isLlmConfigured, type LoadConfigOptions, loadConfig, type RagjudgeConfig } from "./load.js";
