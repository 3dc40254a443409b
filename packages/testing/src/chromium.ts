import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { CHROMIUM } from './chromium-path';

/** Starts Debian's Chromium headless; fails, saying how to install it, when it is missing. */
/** `args`: more Chromium flags, e.g. `--host-resolver-rules=MAP name.test 127.0.0.1` for a named host. */
export async function launchChromium(args: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install it with apt-get install -y chromium`);
  // Loaded here, not at the top: every suite imports this package, and playwright-core costs ~0.6 s of CPU to
  // load in each suite's fresh module registry, which the suites without a browser never use.
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      ...args,
    ],
    timeout: 30000,
  });
}
