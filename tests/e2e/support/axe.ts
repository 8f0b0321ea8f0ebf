import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Waits until the page's DOM has stopped changing: three animation frames in a row without a mutation (at most two
 * seconds of frames). axe builds its tree of the page once, at the start of a scan; an element added after that (an
 * editor drawing its lines, a layer redrawn on blur) has no place in the tree, and axe throws while naming it.
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        let quiet = 0;
        let frames = 0;
        const watch = new MutationObserver(() => {
          quiet = 0;
        });
        watch.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        const frame = () => {
          quiet += 1;
          frames += 1;
          if (quiet > 3 || frames > 120) {
            watch.disconnect();
            done();
          } else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
}

/**
 * Violations an axe-core scan rates serious or critical, as readable lines. A scan that throws inside axe's own code
 * (an element it never saw, added while it ran) did not finish: it runs again on the settled page, twice at most, and
 * the third throw fails the test. A finished scan is never run again, so a violation is never retried away.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  let results: Awaited<ReturnType<AxeBuilder['analyze']>> | undefined;
  for (let attempt = 1; !results; attempt += 1) {
    await settled(page);
    try {
      results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    } catch (error) {
      if (attempt === 3 || !/TypeError/.test(String(error))) throw error;
    }
  }
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')}: ${n.failureSummary?.split('\n').join(' ')}`));
}
