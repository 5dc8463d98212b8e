import { defineConfig, devices } from '@playwright/test';

/**
 * Chromium as installed on the machine (`/usr/bin/chromium`, or CHROMIUM_PATH), never a
 * downloaded one. Playwright's launch() gives every browser a fresh temporary profile (its own
 * `--user-data-dir`, removed afterwards); it refuses that flag in `args`.
 */
export default defineConfig({
  testDir: './tests',
  testMatch: '**/*.spec.ts',
  globalSetup: './tests/global-setup.ts',
  timeout: 60_000,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    ...devices['Desktop Chrome'],
    headless: true,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
