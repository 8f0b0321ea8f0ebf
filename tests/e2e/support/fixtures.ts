import { test as base, expect } from '@playwright/test';

/**
 * The e2e `test`: every page a test opens must log no console error, throw no uncaught
 * exception, and fetch nothing that fails. A test that expects a failure (the 404 page) clears
 * `problems` after provoking it.
 */
export const test = base.extend<{ problems: string[] }>({
  problems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
      page.on('requestfailed', (request) => {
        // A download that the test saves itself is "aborted" by the browser; that is not a failure.
        if (request.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
      });
      page.on('response', (response) => {
        if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
      });
      await use(problems);
      expect(problems, 'the page logged errors or failed to load something').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
