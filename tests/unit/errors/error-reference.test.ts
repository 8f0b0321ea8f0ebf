import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { withGeneratedSections } from '../../../scripts/docs-sections.ts';
import { catalogEntries } from '../../../src/errors/catalog.ts';

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

  it('is the source of docs/errors.md, with each lint rule\'s bad and good example (run `npm run docs` after changing it)', async () => {
    const reference = await readFile(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
    expect(reference).toBe(withGeneratedSections('docs/errors.md', reference));
    expect(reference).toContain('### PK106 UnknownField: Unknown field');
    expect(reference).toMatch(/### PK213 SignalUnusable[^]*?\*\*Rule\*\* `failure-signal`[^]*?Reported:[^]*?Fixed:/);
  });
});
