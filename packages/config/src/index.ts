export {
  ConfigError,
  loadConfig,
  isLoopbackName,
  loadDataDir,
  secretKeyOf,
  settingAccepts,
  suspensionRuleOf,
  type Config,
  type ProcessRole,
  type Role,
} from './load-config';
export { decodeSecretKey, settingsSchema, type Settings } from './settings';
export { renderSettingsTable, settingsReference, type SettingReference } from './settings-reference';
export { AA_CONTRAST, contrastRatio, contrastWithWhite, type BrandLogo } from './brand';
