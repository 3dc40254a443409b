export { ConfigError, loadConfig, secretKeyOf, type Config, type Role } from './load-config';
export { decodeSecretKey, settingsSchema, type Settings } from './settings';
