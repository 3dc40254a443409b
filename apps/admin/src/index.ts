export { mountAdmin, type AdminDeps } from './mount-admin';
export type { AdminCredentials } from './admin-auth';
