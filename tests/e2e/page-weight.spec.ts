import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/fixtures.ts';
import { publicDrills } from './support/packets.ts';

/**
 * The JavaScript a page loads, read from the built site: its module scripts (by src and inline)
 * and every module they import, statically or on demand, counted once each, in bytes.
 */
function scriptBytes(dist: string, page: string): { bytes: number; files: Record<string, number> } {
  const html = readFileSync(path.join(dist, page, 'index.html'), 'utf8');
  const files: Record<string, number> = {};
  let inline = 0;
  const queue: string[] = [];
  const importsOf = (js: string, from: string) => {
    for (const m of js.matchAll(/(?:\bimport\s*\(?|\bfrom)\s*["']([^"']+\.js)["']/g)) queue.push(path.posix.resolve(path.posix.dirname(from), m[1]!));
  };
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const attrs = m[1]!;
    const src = /\bsrc="([^"]+)"/.exec(attrs)?.[1];
    if (src) queue.push(src);
    else if (!/type="application\/(ld\+)?json"/.test(attrs)) {
      inline += Buffer.byteLength(m[2]!);
      importsOf(m[2]!, `/${page}/`);
    }
  }
  while (queue.length) {
    const url = queue.shift()!;
    if (url in files) continue;
    const file = path.join(dist, url);
    if (!existsSync(file)) throw new Error(`${page} loads ${url}, which the build does not hold`);
    const js = readFileSync(file, 'utf8');
    files[url] = Buffer.byteLength(js);
    importsOf(js, url);
  }
  return { bytes: inline + Object.values(files).reduce((a, b) => a + b, 0), files };
}

test('the drill page loads under 20 KB of JavaScript, no schema library among it', async () => {
  const dist = process.env.PACKET_KIT_E2E_DIST!;
  for (const drill of await publicDrills()) {
    const { bytes, files } = scriptBytes(dist, `drills/${drill.id}`);
    expect(Object.keys(files).length, 'the drill page loads its script').toBeGreaterThan(0);
    const withZod = Object.keys(files).filter((url) => /\$ZodType|__zod_globalConfig/.test(readFileSync(path.join(dist, url), 'utf8')));
    expect(withZod, 'scripts of the drill page that carry zod').toEqual([]);
    expect(bytes, `the drill page's scripts: ${JSON.stringify(files)}`).toBeLessThan(20 * 1024);
  }
});
