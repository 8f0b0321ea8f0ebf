import type { Locator, Page } from '@playwright/test';
import { LEVELS } from '../../src/packets/schema/prompt.ts';
import type { PublicPacket } from '../../src/packets/public.ts';
import type { PublicDrill } from '../../src/packets/public-drill.ts';
import { formatBytes, REHEARSAL_LABELS } from '../../src/site/format.ts';
import { expect, test } from './support/fixtures.ts';
import { expectedBuild, publicDrills, publicPackets, siteUnderTest, type SiteUnderTest } from './support/packets.ts';

/** A card of the catalog: a take-home, a lab or a drill. */
type Entry = PublicPacket | PublicDrill;

let packets: Entry[];
let takehomesAndLabs: PublicPacket[];
let drills: PublicDrill[];
let site: SiteUnderTest;
test.beforeAll(async () => {
  takehomesAndLabs = await publicPackets();
  drills = await publicDrills();
  packets = [...takehomesAndLabs, ...drills];
  site = await siteUnderTest();
});

const visibleCardIds = async (page: Page) => (await page.locator('[data-card]:visible').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.card!))).sort();
const ids = (list: Entry[]) => list.map((p) => p.id).sort();
const hrefOf = (e: Entry) => ('diffs' in e ? `/drills/${e.id}/` : e.lab ? `/labs/${e.id}/` : `/packets/${e.id}/`);
const has = (text: string, word: string) => text.toLowerCase().includes(word.toLowerCase());
/** Is the site's search index in this build? Then a search also finds words of the prompts. */
const indexed = () => Boolean(site.manifest?.search) && takehomesAndLabs.every((p) => expectedBuild(site, p).download);
/**
 * Does a search for one word show this packet: the card's own text has it, or (with the search
 * index) a word of the prompt starts like it (the index matches word stems: "retry", "retries").
 */
const found = (p: Entry, word: string) =>
  [p.prompt.title, p.prompt.summary, p.id, ...p.prompt.tags].some((t) => has(t, word)) || (indexed() && 'promptBody' in p && new RegExp(`\\b${word.slice(0, -1)}`, 'i').test(p.promptBody));

test('lists every packet once, grouped by level from junior to principal', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/packet-kit/);
  expect(await visibleCardIds(page)).toEqual(ids(packets));

  const levelsShown = await page.locator('[data-level-group]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.levelGroup!));
  expect(levelsShown).toEqual(LEVELS.filter((level) => packets.some((p) => p.prompt.level === level)));

  for (const packet of packets) {
    const card = page.locator(`[data-level-group="${packet.prompt.level}"] [data-card="${packet.id}"]`);
    await expect(card.getByRole('heading', { name: packet.prompt.title })).toBeVisible();
    await expect(card.getByRole('link', { name: packet.prompt.title, exact: true })).toHaveAttribute('href', hrefOf(packet));
    await expect(card.getByText(packet.prompt.summary)).toBeVisible();
    await expect(card.locator('[data-fact="version"]')).toHaveText(packet.prompt.version);
    await expect(card).toContainText(`${packet.prompt.minutes} min`);
    if ('diffs' in packet) {
      // A drill: how many diffs, and no test or rehearsal (it runs no code).
      await expect(card.locator('[data-fact="diffs"]')).toHaveText(String(packet.diffs.length));
      await expect(card.locator('[data-fact="tests"]')).toHaveCount(0);
      continue;
    }
    await expect(card.locator('[data-fact="tests"]')).toHaveText(String(packet.visibleTests));
    if (packet.lab) await expect(card.locator('[data-fact="suggestions"]')).toHaveText(String(packet.lab.suggestions.length));
    const rehearsal = expectedBuild(site, packet).rehearsal;
    await expect(card.locator('[data-rehearsal]')).toHaveText(REHEARSAL_LABELS[rehearsal]!.label);
  }
});

test('filters by level, language and tag, searches, and keeps the filters in the URL', async ({ page }) => {
  await page.goto('/');
  const form = page.getByRole('search', { name: 'Filter packets' });
  await expect(form).toBeVisible();
  const level = form.getByLabel('Level', { exact: true });
  const language = form.getByLabel('Language', { exact: true });
  const tag = form.getByLabel('Tag', { exact: true });
  const search = form.getByLabel('Search', { exact: true });
  const status = page.locator('#catalog-count');

  // A level that some packets have and others do not.
  const someLevel = LEVELS.find((l) => packets.some((p) => p.prompt.level === l) && packets.some((p) => p.prompt.level !== l))!;
  await level.selectOption(someLevel);
  const atLevel = packets.filter((p) => p.prompt.level === someLevel);
  expect(await visibleCardIds(page)).toEqual(ids(atLevel));
  await expect(status).toHaveText(`Showing ${atLevel.length} of ${packets.length} packets.`);
  for (const other of LEVELS.filter((l) => l !== someLevel)) await expect(page.locator(`[data-level-group="${other}"]`)).toBeHidden();
  await level.selectOption('');

  const someLanguage = packets[0]!.prompt.language;
  await language.selectOption(someLanguage);
  expect(await visibleCardIds(page)).toEqual(ids(packets.filter((p) => p.prompt.language === someLanguage)));
  await language.selectOption('');

  // The tag that the most packets share without all of them having it.
  const allTags = [...new Set(packets.flatMap((p) => p.prompt.tags))];
  const partial = allTags.filter((t) => packets.some((p) => !p.prompt.tags.includes(t)));
  const someTag = partial.sort((a, b) => packets.filter((p) => p.prompt.tags.includes(b)).length - packets.filter((p) => p.prompt.tags.includes(a)).length)[0]!;
  await tag.selectOption(someTag);
  expect(await visibleCardIds(page)).toEqual(ids(packets.filter((p) => p.prompt.tags.includes(someTag))));

  // Search within the tag: the word must appear in the title, summary, id or tags (or the prompt, with the search index).
  const word = 'budget';
  await search.fill(word);
  const expected = packets.filter((p) => p.prompt.tags.includes(someTag) && found(p, word));
  await expect.poll(() => visibleCardIds(page), { timeout: 15_000 }).toEqual(ids(expected));
  await expect(page).toHaveURL(new RegExp(`\\?q=${word}&tag=${someTag}$`));

  // The URL brings the same filters back.
  await page.reload();
  await expect(search).toHaveValue(word);
  await expect(tag).toHaveValue(someTag);
  await expect.poll(() => visibleCardIds(page), { timeout: 15_000 }).toEqual(ids(expected));

  // Nothing matches: say so.
  await search.fill('zzzz no such packet');
  await expect.poll(() => visibleCardIds(page)).toEqual([]);
  await expect(status).toHaveText(/^No packet matches these filters/);

  await form.getByRole('button', { name: 'Clear filters' }).click();
  // The filter runs after the click's own events: read the cards once it has.
  await expect.poll(() => visibleCardIds(page)).toEqual(ids(packets));
  await expect(status).toHaveText(`Showing all ${packets.length} packets.`);
  await expect(page).toHaveURL(/\/$/);
});

test('each card shows its zip size and downloads the zip directly', async ({ page }) => {
  await page.goto('/');
  for (const packet of takehomesAndLabs) {
    const card = page.locator(`[data-card="${packet.id}"]`);
    const expected = expectedBuild(site, packet).download;
    const link = card.locator('[data-card-download]');
    if (!expected) {
      await expect(link).toHaveCount(0);
      continue;
    }
    await expect(link).toHaveAttribute('href', `/zips/${expected.zip}`);
    await expect(link).toHaveAttribute('download', expected.zip);
    await expect(link.locator('[data-fact="zip-size"]')).toHaveText(formatBytes(expected.size));
    await expect(link).toHaveAccessibleName(`Download zip ${formatBytes(expected.size)} of ${packet.prompt.title}`);
  }
  const first = takehomesAndLabs.find((p) => expectedBuild(site, p).download);
  if (first) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-card="${first.id}"] [data-card-download]`).click()]);
    expect(download.suggestedFilename()).toBe(expectedBuild(site, first).download!.zip);
  }
});

test('the search finds a packet by a word only its prompt holds, from the site\'s search index', async ({ page }) => {
  test.skip(!indexed(), 'this site was built without a search index');
  // A word of one packet's prompt that no card shows (title, summary, id, tags) and no other prompt has.
  const cardText = packets.map((p) => [p.prompt.title, p.prompt.summary, p.id, ...p.prompt.tags].join(' ').toLowerCase()).join(' ');
  const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]{9,}/g) ?? []);
  let target: PublicPacket | undefined;
  let word = '';
  for (const packet of takehomesAndLabs) {
    const others = takehomesAndLabs.filter((p) => p !== packet).map((p) => p.promptBody.toLowerCase()).join(' ');
    word = [...words(packet.promptBody)].find((w) => !cardText.includes(w.slice(0, 7)) && !others.includes(w.slice(0, 7))) ?? '';
    if (word) {
      target = packet;
      break;
    }
  }
  expect(target, 'no packet has a prompt word of its own').toBeDefined();
  await page.goto('/');
  await page.getByLabel('Search', { exact: true }).fill(word);
  // The index's script and WebAssembly load on the first search: give it longer than a click.
  await expect.poll(() => visibleCardIds(page), { timeout: 15_000 }).toEqual([target!.id]);
  await expect(page.locator('#catalog-count')).toHaveText(`Showing 1 of ${packets.length} packets.`);
  // The other filters still apply on top.
  const otherLevel = LEVELS.find((l) => l !== target!.prompt.level && packets.some((p) => p.prompt.level === l));
  if (otherLevel) {
    await page.getByLabel('Level', { exact: true }).selectOption(otherLevel);
    await expect.poll(() => visibleCardIds(page)).toEqual([]);
  }
});

test('the filters work from the keyboard', async ({ page }) => {
  await page.goto('/');
  const search = page.getByLabel('Search', { exact: true });
  await search.focus();
  await page.keyboard.type('retry');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Level', { exact: true })).toBeFocused();
  const matching = packets.filter((p) => found(p, 'retry'));
  await expect.poll(() => visibleCardIds(page), { timeout: 15_000 }).toEqual(ids(matching));
  const first = page.locator('[data-card]:visible a').first();
  await first.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/(packets|labs|drills)/(${matching.map((p) => p.id).join('|')})/$`));
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('lists every packet and hides the filters it cannot run', async ({ page }) => {
    await page.goto('/');
    expect(await visibleCardIds(page)).toEqual(ids(packets));
    await expect(page.getByRole('search')).toBeHidden();
    const card: Locator = page.locator('[data-card]').first();
    await expect(card.getByRole('link').first()).toBeVisible();
  });
});
