import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { PublicPacket } from '../../src/packets/public.ts';
import { REHEARSAL_LABELS } from '../../src/site/format.ts';
import { expect, test } from './support/fixtures.ts';
import { expectedBuild, publicPackets, siteUnderTest, type SiteUnderTest } from './support/packets.ts';
import { zipEntries } from './support/zip-entries.ts';
import { placeholderValues, renderTemplate, type VariantValues } from '../../src/packets/variants.ts';
import path from 'node:path';

/** The values variant v1 of a packet sees, from the build's VARIANTS.json beside the reviewer bundles. */
async function firstVariantValues(packet: PublicPacket): Promise<VariantValues> {
  const dir = process.env.PACKET_KIT_E2E_REVIEWER!;
  const key = JSON.parse(await readFile(path.join(dir, 'variants', `${packet.id}-${packet.prompt.version}`, 'VARIANTS.json'), 'utf8')) as { variants: { number: number; values: VariantValues }[] };
  return placeholderValues(1, key.variants.find((v) => v.number === 1)!.values);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const SECRET_TREES = /^(?:[^/]+\/)?(?:sample|hidden|mutants|replies)\/|(?:^|\/)(?:sample|failures)\.mdx$/;

// Read when the file loads, so each packet gets its own tests (and their own time budget).
const packets: PublicPacket[] = await publicPackets();
let site: SiteUnderTest;
test.beforeAll(async () => {
  site = await siteUnderTest();
});

for (const packet of packets) {
  test(`the packet page shows its prompt with highlighted code, its starter files, its version and its changelog: ${packet.id}`, async ({ page }) => {
    await page.goto(`/packets/${packet.id}/`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(packet.prompt.title);
    await expect(page.getByText(packet.prompt.summary).first()).toBeVisible();

    // The prompt, rendered from Markdown, with its code fences highlighted by shiki.
    const prompt = page.locator('.prompt');
    await expect(prompt.locator('h3, h4').first()).toBeVisible();
    const fences = (packet.promptBody.match(/^```/gm)?.length ?? 0) / 2;
    await expect(prompt.locator('pre.astro-code')).toHaveCount(fences);
    if (fences > 0) expect(await prompt.locator('pre.astro-code span[style*="color"]').count()).toBeGreaterThan(0);

    // The starter tree: every file, in the tree and as a section with its hash, and nothing else.
    const shown = await page.locator('[data-file]').evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.file!, (e as HTMLElement).dataset.sha256!]));
    expect(shown.sort()).toEqual(packet.starter.map((f) => [f.path, f.sha256]).sort());
    await expect(page.getByRole('navigation', { name: 'Starter file tree' }).getByRole('link')).toHaveCount(packet.starter.length);
    const withCode = packet.starter.filter((f) => f.text);
    await expect(page.locator('[data-file] pre.astro-code')).toHaveCount(withCode.length);

    // Version, digest, tests and the rehearsal status of this digest.
    await expect(page.locator('[data-fact="version"]')).toHaveText(packet.prompt.version);
    await expect(page.locator('[data-fact="digest"]')).toHaveText(packet.digest);
    await expect(page.locator('[data-fact="tests"]')).toHaveText(`${packet.visibleTests} visible`);
    await expect(page.locator('[data-fact="rehearsal"]')).toHaveText(REHEARSAL_LABELS[expectedBuild(site, packet).rehearsal]!.label);

    const changelog = await page.locator('[data-changelog] li').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.version));
    expect(changelog).toEqual(packet.prompt.changelog.map((c) => c.version));

    // A lab's answer sheet is scored on the lab's own scoring page, never on the take-home's scorecard import.
    await expect(page.getByRole('link', { name: 'Read the rubric' })).toHaveAttribute('href', packet.prompt.kind === 'lab' ? `/labs/${packet.id}/score/` : `/packets/${packet.id}/rubric/`);
  });
}

for (const packet of packets) {
  test(`the download serves the zip the page describes, holding the starter files and no secret: ${packet.id}`, async ({ page }) => {
    await page.goto(`/packets/${packet.id}/`);
    const built = expectedBuild(site, packet);
    const expected = built.download;
    const link = page.locator('[data-zip-link]');
    if (!expected) {
      // Built without a zip of this digest: say so, and link nothing.
      await expect(link).toHaveCount(0);
      await expect(page.locator('[data-fact="not-built"]')).toBeVisible();
      return;
    }
    await expect(link).toHaveAttribute('href', `/zips/${expected.zip}`);
    await expect(page.locator('[data-fact="zip-sha256"]')).toHaveText(expected.sha256);
    await expect(page.locator('[data-fact="zip-size"]')).toHaveAttribute('data-bytes', String(expected.size));
    await expect(page.locator('[data-fact="zip-version"]')).toHaveText(packet.prompt.version);
    // A packet with variants offers its first variant's zip on the public page.
    expect(expected.zip).toBe(`${packet.id}-${packet.prompt.version}${built.variants ? '-v1' : ''}.zip`);

    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe(expected.zip);
    const bytes = await readFile((await download.path())!);
    expect(bytes.length).toBe(expected.size);
    expect(sha256(bytes)).toBe(expected.sha256);

    // The zip's files: the starter tree (byte for byte), the prompt, the rubric, and nothing secret.
    const entries = zipEntries(bytes);
    const prefix = commonFolder(entries.map((e) => e.name));
    const inZip = new Map(entries.map((e) => [e.name.slice(prefix.length), sha256(e.bytes)]));
    // A packet with variants ships its first variant: each starter file with v1's values (VARIANTS.json of the reviewer side) written in.
    const v1 = built.variants ? await firstVariantValues(packet) : undefined;
    for (const file of packet.starter) {
      const want = v1 ? sha256(Buffer.from(renderTemplate(await readFile(path.join('packets', packet.id, 'starter', file.path), 'utf8'), v1))) : file.sha256;
      expect(inZip.get(file.path), `${expected.zip}: ${file.path}`).toBe(want);
    }
    if (v1) expect([...entries].some((e) => e.bytes.toString().includes('[[variant.')), 'no placeholder left in the zip').toBe(false);
    expect([...inZip.keys()]).toEqual(expect.arrayContaining(['PROMPT.md', 'RUBRIC.md']));
    expect(entries.map((e) => e.name).filter((name) => SECRET_TREES.test(name))).toEqual([]);
  });
}

test('the page says the hire bar with its number, and copies the test command and the checksum commands', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  for (const packet of packets.slice(0, 2)) {
    await page.goto(`/packets/${packet.id}/`);
    await expect(page.locator('[data-scoring-summary]')).toHaveText(new RegExp(`points in all; the hire bar is ${packet.rubric.hireBar}\\.$`));
    const copy = page.getByRole('button', { name: 'Copy the test command' });
    await copy.click();
    await expect(copy).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(packet.prompt.test);
    const expected = expectedBuild(site, packet).download;
    if (!expected) continue;
    await expect(page.locator('[data-checksum="linux"]')).toHaveText(`sha256sum ${expected.zip}`);
    await expect(page.locator('[data-checksum="macos"]')).toHaveText(`shasum -a 256 ${expected.zip}`);
    await page.getByRole('button', { name: 'Copy the macOS checksum command' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`shasum -a 256 ${expected.zip}`);
  }
});

/** The folder every zip entry sits in (`red-log-gate-1.0.0/`), or '' when they sit at the root. */
function commonFolder(names: string[]): string {
  const first = names[0]?.split('/')[0];
  return first && names.every((n) => n.startsWith(`${first}/`)) ? `${first}/` : '';
}
