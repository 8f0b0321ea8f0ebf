import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { withGeneratedSections } from '../../src/docs/generated-sections.ts';
import { catalogEntries } from '../../src/errors/catalog.ts';

describe('the error catalog', () => {
  it('has unique codes and names, each with a title, message and hint', () => {
    const entries = catalogEntries();
    expect(new Set(entries.map((e) => e.code)).size).toBe(entries.length);
    expect(new Set(entries.map((e) => e.name)).size).toBe(entries.length);
    for (const e of entries) {
      expect(e.code).toMatch(/^PK[1-689]\d\d$/);
      expect(e.title.length).toBeGreaterThan(3);
    }
  });

  it('is the source of the README reference, with each lint rule\'s bad and good example (run `npm run docs` after changing it)', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toBe(withGeneratedSections(readme));
    expect(readme).toContain('### PK106 UnknownField: Unknown field');
    expect(readme).toMatch(/### PK213 SignalUnusable[^]*?\*\*Rule\*\* `failure-signal`[^]*?Reported:[^]*?Fixed:/);
  });
});
