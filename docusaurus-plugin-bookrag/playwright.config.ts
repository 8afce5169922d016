import {defineConfig} from '@playwright/test';

/**
 * Browser tests: Debian's Chromium (Playwright's own browser download is not used), one worker
 * (the tests share two bookrag servers, and the time-to-first-text numbers must not compete).
 */
export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/artifacts',
  globalSetup: './test/e2e/harness/global-setup.ts',
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: {timeout: 15_000},
  reporter: [['list']],
  use: {
    viewport: {width: 1280, height: 800},
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
