import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectCanaries, htmlText, isDistinctive, scanDirForCanaries, scanFilesForCanaries, type Canary } from '../../../src/bundle/canary.ts';
import { writeZip } from '../../../src/bundle/zip-writer.ts';
import { memPacket } from './helpers.ts';

const enc = new TextEncoder();
const SAMPLE_LINE = 'return sum(int(n) * UNITS[unit] for n, unit in PART.findall(text))';
const HIDDEN_LINE = 'self.assertEqual(parse_duration("2h3m4s"), 7384)';
const FAILURE_LINE = 'hour. The reviewer sees `PART.search(` where every unit should be summed.';
const PUBLIC_LINE = '"""Parse durations such as "1h30m" into seconds."""';

let dist: string;
let canaries: Canary[];
beforeEach(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'packet-canary-'));
  const { packet, read } = memPacket();
  canaries = await collectCanaries([{ packet, read }]);
});
afterEach(() => rm(dist, { recursive: true, force: true }));

async function put(rel: string, content: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(path.join(dist, rel)), { recursive: true });
  await writeFile(path.join(dist, rel), content);
}

/** A code line as shiki writes it: one span per token, entities for quotes and brackets. */
function shiki(line: string): string {
  return `<pre class="shiki"><code><span class="line">${line
    .split(/(?=[ (.])/)
    .map((tok) => `<span style="color:#D73A49">${tok.replace(/&/g, '&amp;').replace(/</g, '&#x3C;').replace(/"/g, '&#x22;')}</span>`)
    .join('')}</span></code></pre>`;
}

describe('the canary scan', () => {
  it('takes distinctive secret lines, with their sources, and leaves out lines the public parts show', () => {
    const byText = new Map(canaries.map((c) => [c.text, c]));
    // A line in several secret files keeps every source (here the sample and its scripted reply).
    expect(byText.get(SAMPLE_LINE)?.sources).toContainEqual({ file: 'packets/mem/sample/src/duration.py', line: 13 });
    expect(byText.get(SAMPLE_LINE)?.sources).toContainEqual({ file: 'packets/mem/replies/sample.md', line: 16 });
    expect(byText.get(HIDDEN_LINE)?.sources[0]?.file).toBe('packets/mem/hidden/tests/test_hidden_duration.py');
    expect(byText.has(FAILURE_LINE)).toBe(true);
    expect(byText.has(PUBLIC_LINE)).toBe(false); // in the starter too
    expect(byText.has('if __name__ == "__main__":')).toBe(false); // in the starter's tests too
    expect(byText.has('import unittest')).toBe(false); // too short to tell anything
    expect(isDistinctive('}, {"a": 1, "b": 2, "c": 3}')).toBe(false); // long, but hardly a word in it
  });

  it('leaves out the lines the kit publishes of its own (its docs, its schemas)', async () => {
    const { packet, read } = memPacket();
    const withKit = await collectCanaries([{ packet, read }], { secret: [], public: [`Fixed:\n  ${SAMPLE_LINE}\n`] });
    expect(withKit.map((c) => c.text)).not.toContain(SAMPLE_LINE);
    expect(withKit.map((c) => c.text)).toContain(HIDDEN_LINE);
  });

  it("takes the rubric's reviewer-only lines as canaries, and none of its public lines", () => {
    const byText = new Map(canaries.map((c) => [c.text, c]));
    const reviewer = [...byText.values()].filter((c) => c.sources.some((s) => s.file === 'packets/mem/rubric.mdx'));
    expect(reviewer.map((c) => c.text)).toEqual(['Read `NOTES.md` first, then the diff of `src/duration.py`. Score refusal by trying one bad', 'input in your head: `1h30`, `h`, an empty string.']);
    expect(reviewer[0]!.sources[0]!.line).toBeGreaterThan(30);
    expect(byText.has('Notes are read before the diff: say what was wrong, how you found it and how you checked the fix.')).toBe(false);
  });

  it('finds a hidden-test line quoted in the reviewer notes when it leaks onto a page', async () => {
    const { packet, read } = memPacket((f) => ({ 'rubric.mdx': `${f['rubric.mdx']}
The held-out test checks:

    ${HIDDEN_LINE}
` }));
    const quoted = await collectCanaries([{ packet, read }]);
    expect(quoted.find((c) => c.text === HIDDEN_LINE)?.sources.map((s) => s.file)).toEqual(['packets/mem/hidden/tests/test_hidden_duration.py', 'packets/mem/rubric.mdx']);
    await put('packets/mem/rubric/index.html', `<html><body><p>ok</p>${shiki(HIDDEN_LINE)}</body></html>`);
    const report = await scanDirForCanaries(dist, quoted);
    expect(report.leaks.map((l) => l.where)).toEqual(['packets/mem/rubric/index.html']);
  });

  it("finds a line of the rubric's reviewer notes in a candidate zip", async () => {
    await put('zips/mem-0.1.0.zip', await writeZip([{ path: 'mem-0.1.0/RUBRIC.md', bytes: enc.encode('# Rubric\n\nRead `NOTES.md` first, then the diff of `src/duration.py`. Score refusal by trying one bad\ninput.\n') }]));
    const report = await scanDirForCanaries(dist, canaries);
    expect(report.leaks).toEqual([{ where: 'zips/mem-0.1.0.zip!mem-0.1.0/RUBRIC.md', source: expect.stringMatching(/^packets\/mem\/rubric\.mdx:\d+$/) }]);
  });

  it('finds nothing in a site made of public material', async () => {
    await put('index.html', `<html><body><h1>Packets</h1>${shiki(PUBLIC_LINE)}</body></html>`);
    await put('zips/mem-0.1.0.zip', await writeZip([{ path: 'mem-0.1.0/src/duration.py', bytes: enc.encode(`${PUBLIC_LINE}\n`) }]));
    const report = await scanDirForCanaries(dist, canaries);
    expect(report.leaks).toEqual([]);
    expect(report.files).toBe(2);
  });

  it('finds a secret line planted in a page, even split into highlighted spans', async () => {
    await put('packets/mem/index.html', `<html><body><p>ok</p>${shiki(SAMPLE_LINE)}</body></html>`);
    const report = await scanDirForCanaries(dist, canaries);
    expect(report.leaks).toEqual([{ where: 'packets/mem/index.html', source: 'packets/mem/replies/sample.md:16' }]);
  });

  it('finds a secret line inside a zip, and inside a zip in a zip', async () => {
    const inner = await writeZip([{ path: 'deep/test_x.py', bytes: enc.encode(`    ${HIDDEN_LINE}\n`) }]);
    await put('zips/mem-0.1.0.zip', await writeZip([
      { path: 'mem-0.1.0/tests/test_extra.py', bytes: enc.encode(`class T:\n    def test(self):\n        ${HIDDEN_LINE}\n`) },
      { path: 'mem-0.1.0/vendor.zip', bytes: inner },
    ]));
    const report = await scanDirForCanaries(dist, canaries);
    expect(report.leaks.map((l) => l.where)).toEqual(['zips/mem-0.1.0.zip!mem-0.1.0/tests/test_extra.py', 'zips/mem-0.1.0.zip!mem-0.1.0/vendor.zip!deep/test_x.py']);
    expect(report.leaks[0]!.source).toMatch(/^packets\/mem\/hidden\/tests\/test_hidden_duration\.py:\d+$/);
  });

  it('finds a failure-catalog line in a script, as an escaped string', async () => {
    await put('_astro/page.js', `const a=${JSON.stringify({ note: `${FAILURE_LINE} "quoted"` })};export{a};`);
    await put('_astro/data.json', JSON.stringify([`x ${HIDDEN_LINE} y`]));
    const report = await scanDirForCanaries(dist, canaries);
    expect(report.leaks.map((l) => `${l.where} <- ${l.source.replace(/:\d+$/, '')}`)).toEqual([
      '_astro/data.json <- packets/mem/hidden/tests/test_hidden_duration.py',
      '_astro/page.js <- packets/mem/failures.mdx',
    ]);
  });

  it('finds a secret line in a gzip file, as the search index writes its fragments', async () => {
    const { gzipSync } = await import('node:zlib');
    await put('pagefind/fragment/en_1.pf_fragment', gzipSync(`pagefind_dcd${JSON.stringify({ url: '/packets/mem/', content: `x ${SAMPLE_LINE} y` })}`));
    await put('pagefind/fragment/en_2.pf_fragment', gzipSync(`pagefind_dcd${JSON.stringify({ content: PUBLIC_LINE })}`));
    const report = await scanDirForCanaries(dist, canaries);
    expect(report.leaks.map((l) => l.where)).toEqual(['pagefind/fragment/en_1.pf_fragment!']);
  });

  it('reuses what an earlier scan found in the same bytes for the same canaries, and searches anything else', async () => {
    const { directoryCanaryCache } = await import('../../../src/bundle/canary.ts');
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'packet-canary-cache-'));
    try {
      const cache = directoryCanaryCache(cacheDir, 'kit');
      await put('a.html', `<p>${SAMPLE_LINE}</p>`);
      await put('b.html', '<p>fine</p>');
      expect((await scanDirForCanaries(dist, canaries, undefined, cache)).leaks.map((l) => l.where)).toEqual(['a.html']);
      // Plant a different answer for b.html's bytes: a second scan takes it from the cache.
      const [key] = [...(await cache.load((await import('../../../src/bundle/canary.ts')).canarySetKey(canaries))).keys()].filter((k) => k.startsWith('b.html\0'));
      await cache.save((await import('../../../src/bundle/canary.ts')).canarySetKey(canaries), new Map([[key!, [{ where: 'b.html', source: 'planted' }]]]));
      expect((await scanDirForCanaries(dist, canaries, undefined, cache)).leaks.map((l) => `${l.where} ${l.source}`)).toEqual(['a.html packets/mem/replies/sample.md:16', 'b.html planted']);
      // Changed bytes are searched again.
      await put('b.html', `<p>${HIDDEN_LINE}</p>`);
      expect((await scanDirForCanaries(dist, canaries, undefined, cache)).leaks.map((l) => l.where)).toEqual(['a.html', 'b.html']);
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  it('reads the text an HTML page shows', () => {
    expect(htmlText('<p>a &lt;b&gt; &amp; &#x22;c&#34; &#128512;<!-- hidden --></p>')).toBe('a <b> & "c" \u{1F600}');
  });

  it('finds a leak in a zip searched ahead, and searches it again when its bytes changed since', async () => {
    const leaky = await writeZip([{ path: 'mem-0.1.0/notes.md', bytes: enc.encode(`${SAMPLE_LINE}\n`) }]);
    const clean = await writeZip([{ path: 'mem-0.1.0/notes.md', bytes: enc.encode(`${PUBLIC_LINE}\n`) }]);
    const ahead = await scanFilesForCanaries(new Map([['zips/mem-0.1.0.zip', leaky]]), canaries);
    expect(ahead.get('zips/mem-0.1.0.zip')!.leaks.map((l) => l.where)).toEqual(['zips/mem-0.1.0.zip!mem-0.1.0/notes.md']);
    await put('zips/mem-0.1.0.zip', leaky);
    await put('index.html', '<p>ok</p>');
    const same = await scanDirForCanaries(dist, canaries, ahead);
    expect(same.leaks.map((l) => l.where)).toEqual(['zips/mem-0.1.0.zip!mem-0.1.0/notes.md']);
    expect(same.files).toBe(2);
    // Searched ahead as clean, but the file now holds a secret line: it is searched again.
    const aheadClean = await scanFilesForCanaries(new Map([['zips/mem-0.1.0.zip', clean]]), canaries);
    expect((await scanDirForCanaries(dist, canaries, aheadClean)).leaks.map((l) => l.where)).toEqual(['zips/mem-0.1.0.zip!mem-0.1.0/notes.md']);
  });
});
