export { createServices, type ServiceSettings, type Services } from './services';
export {
  createProducer,
  DEFAULT_PUBLISH_TIMEOUT_MS,
  type InProcessProducer,
  type InProcessPublishOptions,
} from './in-process-producer';
