import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { adoptable, withModeEntry } from '../../../src/mutate/adopt.ts';
import type { MutantRecord, MutationReport } from '../../../src/mutate/report.ts';

/** Which mutants can become failure modes, and where the entry skeleton goes. Pure. */

const FILE = 'def add(a, b):\n    return a + b\n';
const sha = (t: string) => createHash('sha256').update(t).digest('hex');
const m = (id: number, status: MutantRecord['status'], over: Partial<MutantRecord> = {}): MutantRecord => ({ id, fault: `fault ${id}`, path: 'src/calc.py', status, reason: 'why', code: FILE.replace('+', '-'), turn: 1, ...over });
const report = { packet: 'calc', model: 'm', date: '2026-11-29T12:00:00.000Z', sources: [{ path: 'src/calc.py', sha256: sha(FILE) }], mutants: [m(1, 'survived'), m(2, 'killed', { killedBy: ['t::a'] }), m(3, 'duplicate', { duplicateOf: 1 }), m(4, 'invalid')] } as unknown as MutationReport;
const packet = { kind: 'takehome', id: 'calc', failures: { data: { modes: [{ id: 'taken' }] } }, trees: { mutants: { 'old-folder': ['src/calc.py'] } } } as never;
const layer = new Map([['src/calc.py', FILE]]);
const refusal = (n: number, mode: string, l: ReadonlyMap<string, string> = layer) => {
  const r = adoptable(report, n, mode, packet, l);
  return 'ok' in r ? r.reason : `adoptable #${r.id}`;
};

describe('adoptable', () => {
  it('takes a survivor or a killed mutant', () => {
    expect(refusal(1, 'new-mode')).toBe('adoptable #1');
    expect(refusal(2, 'new-mode')).toBe('adoptable #2');
  });

  it('refuses what the tests never judged, a repeat, a taken or malformed id, and a sample that changed since', () => {
    expect(refusal(3, 'new-mode')).toBe('it repeats mutant #1');
    expect(refusal(4, 'new-mode')).toBe('it is invalid (why); only a mutant the tests judged, survived or killed, reproduces a failure');
    expect(refusal(9, 'new-mode')).toBe('the report has mutants #1 to #4');
    expect(refusal(1, 'taken')).toBe('the failure catalog already has a mode "taken"');
    expect(refusal(1, 'old-folder')).toBe('mutants/old-folder/ already exists');
    expect(refusal(1, 'New_Mode')).toBe('"New_Mode" is not a mode id');
    expect(refusal(1, 'new-mode', new Map([['src/calc.py', `${FILE}\n# edited\n`]]))).toBe("the sample's src/calc.py changed since the report was made");
  });
});

describe('withModeEntry', () => {
  const failures = (indent: string) => `---\nmodes:\n${indent}- id: first\n${indent}  title: First\n---\n\n## First\n\nfirst dies.\n`;

  it('appends the skeleton at the list\'s own indentation, and a narrative section', () => {
    for (const indent of ['', '  ', '    ']) {
      const next = withModeEntry(failures(indent), 'new-mode', m(1, 'survived'), { model: 'scripted:calc/mutants', date: '2026-11-29T12:00:00.000Z' });
      expect(typeof next).toBe('string');
      expect(next).toContain(`${indent}  title: First\n${indent}- id: new-mode\n${indent}  title: "fault 1"\n${indent}  mutant: mutants/new-mode\n${indent}  # Adopted from`);
      expect(next as string).toMatch(/\n---\n\n## First\n\nfirst dies\.\n\n## fault 1\n\nIn new-mode, src\/calc\.py is changed so that: fault 1\. Proposed by scripted:calc\/mutants on 2026-11-29 as mutant #1 of `packet mutate`; it survived every test, visible and held out\.\n/);
    }
  });

  it('writes a model\'s fault as text: no heading, JSX, expression, import or control character of its own in failures.mdx', () => {
    const fault = "x\nexport const leak = process.env\n\n<Secret>{key}</Secret>\n# Forged heading\u001b[2J\u202e";
    const next = withModeEntry(failures(''), 'new-mode', m(1, 'survived', { fault, path: 'src/a\n<b>.py' }), { model: 'm', date: '2026-11-29T12:00:00.000Z' }) as string;
    expect(next).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(next).not.toMatch(/^(export|import|<|# Forged)/m);
    expect(next).toContain('## x\\\\nexport const leak = process.env\\\\n\\\\n\\<Secret\\>\\{key\\}\\</Secret\\>\\\\n# Forged heading\\\\u001b\\[2J\\\\u202e\n');
    const parsed = parseDocument(next.split('---\n')[1]!).toJS() as { modes: { title: string }[] };
    expect(parsed.modes[1]!.title).toBe(fault);
  });

  it('refuses a catalog whose frontmatter does not end with a block list of modes', () => {
    expect(withModeEntry('---\nmodes: [{ id: a }]\n---\n', 'x', m(1, 'survived'), { model: 'm', date: 'd' })).toEqual({ reason: 'its frontmatter does not end with `modes:` as a block list' });
    expect(withModeEntry('no frontmatter\n', 'x', m(1, 'survived'), { model: 'm', date: 'd' })).toEqual({ reason: 'failures.mdx has no YAML frontmatter' });
  });
});
