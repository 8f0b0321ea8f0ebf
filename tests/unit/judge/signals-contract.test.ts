import { describe, expect, it } from 'vitest';
import { changesOf, compileForbid, contractFindings, lineOf } from '../../../src/judge/contract.ts';
import { compileSignal, describeSearch, findSignal, signalTexts, type SignalEvidence } from '../../../src/judge/signals.ts';
import type { Snapshot } from '../../../src/judge/snapshot.ts';

/**
 * Failure signals and the workspace contract as pure functions: where each signal source looks
 * and what it leaves out, the line it names, and every clause of the contract.
 */

type Signal = { pattern: string; flags: string; in: 'files' | 'diff' | 'output' | 'ledger'; files?: string[] };
const mode = (signal: Partial<Signal> & { pattern: string }) => ({ signal: { flags: '', in: 'files' as const, ...signal } });
const ev = (before: [string, string | { unsafe: string }][], starter: [string, string][] = [], output = ''): SignalEvidence => ({ before: new Map(before), starter: new Map(starter), output });

describe('compiling a signal', () => {
  it('drops the stateful flags and keeps the others', () => {
    const re = compileSignal(mode({ pattern: 'bad', flags: 'gyi' }));
    expect(re).toBeInstanceOf(RegExp);
    expect((re as RegExp).flags).toBe('i');
  });

  it('says why a pattern does not compile, and a search with it finds nothing', () => {
    expect(compileSignal(mode({ pattern: '(' }))).toMatch(/Invalid regular expression/);
    expect(findSignal(mode({ pattern: '(' }), ev([['a.py', '(']]))).toMatch(/Invalid regular expression/);
  });
});

describe('where a signal looks', () => {
  it('says where, in words, for each source', () => {
    expect(describeSearch(mode({ pattern: 'x', in: 'output' }))).toBe('the test output');
    expect(describeSearch(mode({ pattern: 'x', in: 'ledger' }))).toBe('the receipts (usage.jsonl, ledger.json, give_up.json)');
    expect(describeSearch(mode({ pattern: 'x', in: 'diff', files: ['src/**', 'lib/*.py'] }))).toBe("the lines added against the starter in the candidate's files matching src/**, lib/*.py");
    expect(describeSearch(mode({ pattern: 'x', in: 'files' }))).toBe("the whole text of the candidate's files");
    expect(describeSearch(mode({ pattern: 'x', in: 'files', files: [] }))).toBe("the whole text of the candidate's files");
  });

  it('greps the whole text of files in scope, dotfiles included, sorted by path, unchanged ones too', () => {
    const e = ev([['src/b.py', 'MARK b\n'], ['src/.env.py', 'MARK dot\n'], ['lib/a.py', 'MARK a\n'], ['src/x.bin', { unsafe: 'a FIFO' }]], [['src/b.py', 'MARK b\n']]);
    expect(signalTexts(mode({ pattern: 'MARK', files: ['src/**'] }), e)).toEqual([
      ['src/.env.py', 'MARK dot\n'],
      ['src/b.py', 'MARK b\n'],
    ]);
    expect(findSignal(mode({ pattern: 'MARK', files: ['src/**'] }), e)).toEqual({ where: 'src/.env.py', line: 'MARK dot' });
    expect(signalTexts(mode({ pattern: 'MARK' }), e).map(([f]) => f)).toEqual(['lib/a.py', 'src/.env.py', 'src/b.py']);
  });

  it('greps only the receipt files for `in: ledger`, never a file that was not read', () => {
    const e = ev([['a/log.txt', 'lost'], ['out/usage.jsonl', 'lost 1'], ['out/ledger.json', { unsafe: 'a symlink' }], ['give_up.json', 'lost 2'], ['notes/my_ledger.json', 'lost 3']]);
    expect(signalTexts(mode({ pattern: 'lost', in: 'ledger' }), e)).toEqual([
      ['give_up.json', 'lost 2'],
      ['out/usage.jsonl', 'lost 1'],
    ]);
    expect(findSignal(mode({ pattern: 'lost', in: 'ledger' }), e)).toEqual({ where: 'give_up.json', line: 'lost 2' });
  });

  it('greps only the lines added against the starter for `in: diff`, not kept or removed ones', () => {
    const starter: [string, string][] = [['src/a.py', 'KEEP_MARK = 1\nGONE_MARK = 2\nz = 3\n']];
    const e = ev([['src/a.py', 'KEEP_MARK = 1\nz = 3\nfirst = 1\n'], ['src/new.py', 'n = 1\n']], starter);
    expect(signalTexts(mode({ pattern: 'x', in: 'diff' }), e)).toEqual([
      ['src/a.py', 'first = 1\n'],
      ['src/new.py', 'n = 1\n'],
    ]);
    expect(findSignal(mode({ pattern: 'KEEP_MARK|GONE_MARK', in: 'diff' }), e)).toBeNull();
  });

  it('joins separate added hunks without inventing text, and names the matching line', () => {
    const starter: [string, string][] = [['src/a.py', 'a = 1\nb = 2\nc = 3\n']];
    const e = ev([['src/a.py', 'a = 1\nadded_one = 1\nb = 2\nadded_two = 2  # MARK\nc = 3\n']], starter);
    expect(signalTexts(mode({ pattern: 'x', in: 'diff' }), e)).toEqual([['src/a.py', 'added_one = 1\nadded_two = 2  # MARK\n']]);
    expect(findSignal(mode({ pattern: 'MARK', in: 'diff' }), e)).toEqual({ where: 'src/a.py', line: 'added_two = 2  # MARK' });
  });

  it('has nothing to grep in a file changed only by deletions', () => {
    const e = ev([['src/a.py', 'a = 1\n']], [['src/a.py', 'a = 1\nb = 2\n']]);
    expect(signalTexts(mode({ pattern: '^', in: 'diff' }), e)).toEqual([]);
    expect(findSignal(mode({ pattern: '^', in: 'diff' }), e)).toBeNull();
  });

  it('greps the output for `in: output`, whatever the files hold', () => {
    expect(signalTexts(mode({ pattern: 'x', in: 'output' }), ev([['src/a.py', 'x']], [], 'the output'))).toEqual([['output', 'the output']]);
  });
});

describe('the line a signal names', () => {
  it('is the whole matching line, trimmed, the last line too, at most 160 characters', () => {
    expect(findSignal(mode({ pattern: 'MARK' }), ev([['a.py', 'first\n    middle MARK here   \nlast\n']]))).toEqual({ where: 'a.py', line: 'middle MARK here' });
    expect(findSignal(mode({ pattern: 'MARK' }), ev([['a.py', 'first\nlast MARK']]))).toEqual({ where: 'a.py', line: 'last MARK' });
    expect(findSignal(mode({ pattern: 'MARK' }), ev([['a.py', 'MARK first\nsecond\n']]))).toEqual({ where: 'a.py', line: 'MARK first' });
    const long = `MARK ${'y'.repeat(300)}`;
    expect(findSignal(mode({ pattern: 'MARK' }), ev([['a.py', `${long}\n`]]))).toEqual({ where: 'a.py', line: long.slice(0, 160) });
  });
});

describe('the workspace contract', () => {
  const before = (entries: [string, string | { unsafe: string }][]): Snapshot => new Map(entries);

  it('lists what changed and what was deleted, sorted', () => {
    const starter = new Map([
      ['z.py', 'z'],
      ['a.py', 'a'],
      ['m.py', 'm'],
      ['k.py', 'k'],
    ]);
    const after = before([
      ['z.py', 'Z'],
      ['new.py', 'n'],
      ['a.py', 'A'],
      ['m.py', { unsafe: 'a FIFO' }],
    ]);
    expect(changesOf(starter, after)).toEqual({ changed: ['a.py', 'm.py', 'new.py', 'z.py'], deleted: ['k.py'] });
  });

  it('names the line of a forbidden pattern, also at the first and the last line and across a newline', () => {
    expect(lineOf('a\nb', 1)).toBe(1);
    expect(lineOf('a\nb', 2)).toBe(2);
    expect(lineOf('\nabc', 1)).toBe(2);
    expect(lineOf('abc', 0)).toBe(1);
    const text = 'x = 1\n\nexcept: pass\n';
    const rules = { allow: ['**'], forbid: [{ pattern: '\\nexcept', reason: 'no bare except' }] };
    const fs = contractFindings(rules, before([['src/a.py', text]]), { changed: ['src/a.py'], deleted: [] });
    expect(fs.map((f) => [f.code, f.kind, f.file, f.line, f.message])).toEqual([['PK427', 'contract', 'src/a.py', 3, 'src/a.py:3 matches the forbidden pattern /\\nexcept/: no bare except']]);
  });

  it('allows dotfiles that an allow glob covers, and names a runner hook with its reason', () => {
    const rules = { allow: ['src/**'], forbid: [] };
    const snap = before([
      ['src/.config.py', 'x'],
      ['src/conftest.py', 'import pytest'],
    ]);
    const fs = contractFindings(rules, snap, { changed: ['src/.config.py', 'src/conftest.py'], deleted: [] });
    expect(fs.map((f) => [f.code, f.kind, f.file])).toEqual([['PK428', 'contract', 'src/conftest.py']]);
    expect(fs[0]!.message).toMatchInlineSnapshot(`"src/conftest.py is a file the interpreter or the test runner loads by itself (conftest.py, sitecustomize.py, usercustomize.py, *.pth), so it can change how the tests run or what they report."`);
  });

  it('does not read a forbidden pattern in a file it could not read', () => {
    const rules = { allow: ['**'], forbid: [{ pattern: 'object', reason: 'r' }] };
    expect(contractFindings(rules, before([['src/a.py', { unsafe: 'a symlink' }]]), { changed: ['src/a.py'], deleted: [] })).toEqual([]);
  });

  it('names a forbid pattern that does not compile, with the reason, as a contract finding', () => {
    const { compiled, findings } = compileForbid({ allow: [], forbid: [{ pattern: 'ok', reason: 'r' }, { pattern: '(', reason: 'r' }] });
    expect(compiled.map((c) => c.pattern)).toEqual(['ok']);
    expect(findings.map((f) => [f.code, f.kind])).toEqual([['PK432', 'contract']]);
    expect(findings[0]!.message).toMatch(/^The workspace\.forbid pattern \/\(\/ is not a valid regular expression \(Invalid regular expression: .+\), so the contract cannot be checked, and the run is not green\.$/);
  });
});

describe('edges of the contract and the diff', () => {
  it('lists several deleted files sorted, whatever order the starter has them in', () => {
    const starter = new Map([
      ['z.py', 'z'],
      ['b.py', 'b'],
      ['a.py', 'a'],
    ]);
    expect(changesOf(starter, new Map([['b.py', 'b']]))).toEqual({ changed: [], deleted: ['a.py', 'z.py'] });
  });

  it('greps the whole of a file the starter does not have for `in: diff`', () => {
    expect(findSignal(mode({ pattern: 'NEW_MARK', in: 'diff' }), ev([['src/new.py', 'x = 1\ny = 2  # NEW_MARK\n']], [['src/old.py', 'x\n']]))).toEqual({ where: 'src/new.py', line: 'y = 2  # NEW_MARK' });
    expect(signalTexts(mode({ pattern: 'x', in: 'diff' }), ev([['src/old.py', 'x\n']], [['src/old.py', 'x\n']]))).toEqual([]);
  });
});

describe('which paths are runner hooks and receipts', () => {
  it('names a hook at the root and any .pth file, not a copy with another extension', () => {
    const changes = { changed: ['conftest.py', 'src/setup_paths.pth', 'src/conftest.py.orig'], deleted: [] };
    const before: Snapshot = new Map(changes.changed.map((f) => [f, 'x\n']));
    expect(contractFindings({ allow: ['**'], forbid: [] }, before, changes).map((f) => [f.code, f.file])).toEqual([
      ['PK428', 'conftest.py'],
      ['PK428', 'src/setup_paths.pth'],
    ]);
  });

  it('greps only files named exactly like a receipt for `in: ledger`', () => {
    expect(signalTexts(mode({ pattern: 'x', in: 'ledger' }), ev([['out/usage.jsonl.bak', 'x'], ['out/usage.jsonl', 'x']])).map(([f]) => f)).toEqual(['out/usage.jsonl']);
  });
});
