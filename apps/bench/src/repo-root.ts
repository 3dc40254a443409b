import { resolve } from 'node:path';

/** The workspace root, from src/ (tsx) or dist/ (built) alike. */
export const REPO_ROOT = resolve(__dirname, '../../..');
