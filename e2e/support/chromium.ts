import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium package; `.ci/run` installs it (`apt-get install -y chromium`). */
export const CHROMIUM = '/usr/bin/chromium';

/** Starts headless Chromium, failing with the fix when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install it with \`apt-get update && apt-get install -y chromium\``);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
