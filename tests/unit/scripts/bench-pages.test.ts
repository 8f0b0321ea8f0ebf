import { describe, expect, it } from 'vitest';
import { buildOnlyFile } from '../../../scripts/bench-pages.ts';

describe('the pages the bench compares', () => {
  it('leaves out what only packet build writes: zips, the manifest, the search index, the labs\' tables', () => {
    const files = ['packets.json', 'zips/a-1.0.0.zip', 'pagefind/pagefind.js', 'packets/lab-free-time/combinations.json', 'packets/lab-free-time/index.html', 'packets/combinations.json', 'packets/a/b/combinations.json', 'index.html', 'errors/index.html'];
    expect(files.filter((f) => !buildOnlyFile(f, '/'))).toEqual(['packets/lab-free-time/index.html', 'packets/combinations.json', 'packets/a/b/combinations.json', 'index.html', 'errors/index.html']);
  });
});
