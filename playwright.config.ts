import { defineConfig } from '@playwright/test';

/** Debian's chromium; the tests never download a browser. */
const CHROMIUM = '/usr/lib/chromium/chromium';

export default defineConfig({
  testDir: './tests/e2e',
  testMatch: '*.spec.ts',
  // Screenshots are pictures for a person to look at, not assertions: `npm run screenshots`.
  testIgnore: process.env.PACKET_KIT_SCREENSHOTS ? [] : ['**/screenshots.spec.ts'],
  globalSetup: './tests/e2e/global-setup.ts',
  outputDir: './test-results',
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    // Set by the global setup, which runs before the workers load this file.
    baseURL: process.env.PACKET_KIT_E2E_URL,
    browserName: 'chromium',
    acceptDownloads: true,
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
