// Debian's chromium driven by playwright-core: never `npx playwright install`, which downloads a browser.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.ENGRAM_CHROMIUM ?? '/usr/bin/chromium';

/** Flags this closed network needs: no sandbox (root in containers), no GPU, and nothing that phones home. */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface LaunchedChromium {
  browser: Browser;
  /** Closes the browser and removes its temp HOME. Safe to call twice. */
  cleanup(): Promise<void>;
}

export async function launchChromium(options: { headless?: boolean } = {}): Promise<LaunchedChromium> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`chromium not found at ${CHROMIUM_PATH}: apt-get install -y --no-install-recommends chromium`);
  }
  // Playwright gives every launch a fresh temp --user-data-dir of its own (removed on close); chromium still writes
  // under HOME and XDG folders (~/.pki, crash reports), so those get a throwaway folder too.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-chromium-'));
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: options.headless ?? true,
      args: [...CHROMIUM_FLAGS],
      // Playwright's own signal handlers close the browser and process.exit() at once, before the caller has
      // stopped code-server; callers handle Ctrl-C themselves and call cleanup().
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      env: {
        ...process.env,
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, '.config'),
        XDG_CACHE_HOME: path.join(home, '.cache'),
        XDG_DATA_HOME: path.join(home, '.local', 'share'),
      },
    });
  } catch (error) {
    fs.rmSync(home, { recursive: true, force: true });
    throw error;
  }
  let closed = false;
  return {
    browser,
    cleanup: async () => {
      if (closed) return;
      closed = true;
      await browser.close().catch(() => undefined);
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}
