import { loadPackets } from '../../src/packets/load.ts';
import { codePackets } from '../../src/packets/packet.ts';
import { splitRubricBody } from '../../src/packets/rubric-notes.ts';
import { expect, test } from './support/fixtures.ts';
import { ROOT } from './support/packets.ts';

// Read when the file loads, so each rubric page gets its own test.
const { packets } = await loadPackets({ packetsDir: 'packets', cwd: ROOT });

/** A line as the page shows it: Markdown marks and runs of spaces gone. */
const shown = (line: string) =>
  line
    .replace(/^\s*(#+|\d+\.|[-*])\s+/, '')
    .replace(/[`*]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

for (const packet of codePackets(packets)) {
  const split = splitRubricBody(packet.rubric);
  test(`the rubric page of ${packet.id} shows its public notes and none of its reviewer notes`, async ({ page }) => {
    await page.goto(`/packets/${packet.id}/rubric/`);
    await expect(page.locator('h1')).toContainText(packet.prompt.data.title);
    const text = (await page.locator('body').innerText()).replace(/\s+/g, ' ');
    const secret = split.reviewerLines.map((l) => shown(l.text)).filter((l) => l.length >= 20);
    expect(secret.length, 'every shipped rubric keeps notes for its reviewers').toBeGreaterThan(0);
    expect(secret.filter((l) => text.includes(l))).toEqual([]);
    expect(text).not.toContain('Reviewer notes');
    const notes = page.getByRole('region', { name: 'Notes on scoring' });
    if (split.publicBody.trim()) {
      await expect(notes).toBeVisible();
      await expect(notes).toContainText(shown(split.publicBody.trim().split('\n')[0]!).slice(0, 40));
    } else {
      await expect(notes).toHaveCount(0);
    }
  });
}
