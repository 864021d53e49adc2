// chromium.mjs — launches Debian's headless Chromium (/usr/bin/chromium) through playwright-core.
//
// launchChromium() resolves to a Playwright Browser. The flags keep Chromium quiet on a closed network (no
// background networking, updates, sync or QUIC) and let it run as root (no sandbox); Playwright gives each
// launch a fresh profile folder. CHROMIUM_PATH overrides the binary. No browser is ever downloaded.
import { chromium } from 'playwright-core';

const FLAGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    chromiumSandbox: false,
    args: FLAGS,
  });
}
