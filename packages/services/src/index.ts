export { createServices, type ServiceSettings, type Services } from './services';
