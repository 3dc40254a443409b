/** Debian's Chromium, which the browser tests drive (playwright-core downloads no browser of its own). */
export const CHROMIUM = '/usr/bin/chromium';
