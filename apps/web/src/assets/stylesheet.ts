import { BASE_STYLES } from './base-styles';
import { PAGE_STYLES } from './page-styles';

// The whole look, hand-written and embedded as modules so the build is just `tsc`.
export const STYLESHEET = BASE_STYLES + PAGE_STYLES;
