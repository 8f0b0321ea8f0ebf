import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { catalogEntries } from '../../../src/errors/catalog.ts';
import { LintErrors } from '../../../src/errors/lint-catalog.ts';
import { lintRules } from '../../../src/lint/rules/index.ts';

describe('lint rules and their catalog entries', () => {
  it('each rule has a kebab-case id, its own PK2xx entry with its default severity, and docs', () => {
    const codes = new Set<string>();
    for (const rule of lintRules) {
      expect(rule.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(rule.entry.code).toMatch(/^PK2\d\d$/);
      expect(codes.has(rule.entry.code)).toBe(false);
      codes.add(rule.entry.code);
      expect(rule.entry.severity).toBe(rule.defaultSeverity);
      expect(Object.values(LintErrors)).toContain(rule.entry);
      expect(rule.docs.summary.length).toBeGreaterThan(80);
      expect(rule.docs.bad).not.toBe(rule.docs.good);
    }
    expect(new Set(lintRules.map((r) => r.id)).size).toBe(lintRules.length);
  });

  it('the catalog holds every lint entry once, sorted with the rest', () => {
    const all = catalogEntries().map((e) => e.code);
    expect(new Set(all).size).toBe(all.length);
    for (const e of Object.values(LintErrors)) expect(all).toContain(e.code);
  });

  it('the lint table of docs/lint.md lists every rule with its default severity and code', async () => {
    const readme = await readFile(new URL('../../../docs/lint.md', import.meta.url), 'utf8');
    for (const rule of lintRules) expect(readme).toContain(`| \`${rule.id}\` | ${rule.defaultSeverity} | ${rule.entry.code} |`);
  });

  it('pins the text of a few messages', () => {
    expect(LintErrors.PromptTooLong.message({ words: 412, max: 300 })).toMatchInlineSnapshot(`"The prompt body is 412 words, over the limit of 300; the words over it start here. A long prompt gives a model room to hide and a candidate a weekend of reading: a novel is a fail."`);
    expect(LintErrors.SignalUnusable.message({ mode: 'raw-line-cache', problem: 'starter', source: 'files', file: 'starter/src/cache.py', line: 12 })).toMatchInlineSnapshot(`"The signal of "raw-line-cache" already matches the unchanged starter (starter/src/cache.py, line 12), so it fires on a submission that did nothing."`);
    // A diff signal greps added lines: an untouched starter adds none, so "did nothing" cannot be its case.
    const diff = { mode: 'raw-line-cache', problem: 'starter', source: 'diff', file: 'starter/src/cache.py', line: 12 } as const;
    expect(LintErrors.SignalUnusable.message(diff)).toMatchInlineSnapshot(`"The diff signal of "raw-line-cache" matches a line the unchanged starter already has (starter/src/cache.py, line 12). A diff signal greps the lines a submission adds, so it fires on a submission that only moves or reformats that line."`);
    expect(LintErrors.SignalUnusable.message(diff)).not.toContain('did nothing');
    expect(LintErrors.SignalUnusable.hint(diff)).toMatchInlineSnapshot(`"Make the pattern specific to what the mutant adds: a line the starter does not have, so moving or reformatting the starter's own lines cannot match it."`);
    const ledger = { mode: 'no-give-up', problem: 'starter', source: 'ledger', file: 'starter/usage.jsonl', line: 1 } as const;
    expect(LintErrors.SignalUnusable.message(ledger)).toMatchInlineSnapshot(`"The ledger signal of "no-give-up" already matches the starter's own receipts file (starter/usage.jsonl, line 1), so it fires on a submission that hands that file in unchanged."`);
    expect(LintErrors.SignalUnusable.hint(ledger)).toMatchInlineSnapshot(`"Make the pattern match what the failing run writes to its receipts, not what the starter's usage.jsonl or ledger.json already holds."`);
    expect(LintErrors.SignalUnusable.hint({ mode: 'raw-line-cache', problem: 'compile', reason: 'x' })).toMatchInlineSnapshot(`"Fix the pattern (JavaScript syntax; in YAML double quotes, write a backslash as "\\\\")."`);
  });
});
