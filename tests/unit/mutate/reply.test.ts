import { describe, expect, it } from 'vitest';
import { parseMutantReply } from '../../../src/mutate/reply.ts';

/** The reply reader: a JSON array of mutants in the forms free models answer in, and every way an item can fail to be one. */

const SOURCE = 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n';
const sources = new Map([['src/calc.py', SOURCE]]);
const item = (over: Record<string, unknown> = {}) => ({ fault: 'add subtracts', path: 'src/calc.py', code: SOURCE.replace('a + b', 'a - b'), ...over });

describe('parseMutantReply: finding the array', () => {
  it('reads a bare array, a fenced json block, and an array with words around it', () => {
    const json = JSON.stringify([item()]);
    for (const text of [json, `Here they are:\n\n\`\`\`json\n${json}\n\`\`\`\n`, `Sure. ${json} Hope this helps.`]) {
      const r = parseMutantReply(text, sources);
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.proposals).toEqual([{ index: 1, fault: 'add subtracts', path: 'src/calc.py', form: 'code', code: SOURCE.replace('a + b', 'a - b') }]);
    }
    const loose = parseMutantReply(`Sure. ${json} Hope this helps.`, sources);
    expect(loose.ok && loose.notes).toEqual(['the array was read from the text from the first "[" to the last "]"']);
  });

  it('reads one array inside an object, and says so', () => {
    const r = parseMutantReply(JSON.stringify({ mutants: [item()] }), sources);
    expect(r.ok && r.notes).toEqual(['the array was read from the "mutants" field of an object']);
  });

  it('calls a reply with no readable array malformed, and says why', () => {
    expect(parseMutantReply('I would rather not sabotage this code.', sources)).toEqual({ ok: false, reason: 'it holds no JSON array' });
    expect(parseMutantReply('```json\n[{"fault": "x", "path": \n```', sources)).toMatchObject({ ok: false, reason: expect.stringMatching(/^the JSON in a fenced block does not parse \(/) });
    expect(parseMutantReply('[]', sources)).toEqual({ ok: false, reason: 'the array is empty' });
    expect(parseMutantReply('{"fault": "x"}', sources)).toEqual({ ok: false, reason: 'the JSON in the reply is not an array' });
  });
});

describe('parseMutantReply: items', () => {
  const one = (x: unknown) => {
    const r = parseMutantReply(JSON.stringify([x]), sources);
    if (!r.ok) throw new Error(r.reason);
    return r.proposals[0]!;
  };

  it('keeps an item that is not a mutant, with its problem', () => {
    expect(one('just text').problem).toBe('the item is not an object with "fault", "path" and "code"');
    expect(one(item({ fault: '  ' })).problem).toBe('it states no fault');
    expect(one(item({ code: undefined })).problem).toBe('it has neither "code" nor "diff"');
    expect(one(item({ path: '../etc/passwd' })).problem).toBe('its path "../etc/passwd" climbs out of the workspace with ".."');
    expect(one(item({ path: 'tests/test_calc.py' })).problem).toBe('"tests/test_calc.py" is not one of the sample\'s source files (src/calc.py)');
  });

  it('puts a fault on one line and a final newline on the code', () => {
    const p = one(item({ fault: 'add\n  subtracts', code: 'def add(a, b):\n    return a - b' }));
    expect(p.fault).toBe('add subtracts');
    expect(p.code!.endsWith('\n')).toBe(true);
  });

  it('applies a diff instead of code: bare hunks, or with headers that name the file', () => {
    const hunk = '@@ -5,2 +5,2 @@\n def sub(a, b):\n-    return a - b\n+    return b - a\n';
    expect(one({ fault: 'sub swaps its arguments', path: 'src/calc.py', diff: hunk })).toMatchObject({ form: 'diff', code: SOURCE.replace('a - b', 'b - a') });
    const headed = `--- a/src/calc.py\n+++ b/src/calc.py\n${hunk}`;
    expect(one({ fault: 'sub swaps its arguments', diff: headed })).toMatchObject({ path: 'src/calc.py', code: SOURCE.replace('a - b', 'b - a') });
    expect(one({ fault: 'x', path: 'src/calc.py', diff: '@@ -5,2 +5,2 @@\n def mul(a, b):\n-    return a * b\n+    return a / b\n' }).problem).toMatch(/^its diff cannot be applied: the diff for "src\/calc.py" does not apply/);
  });
});

describe('parseMutantReply: the slips free models make', () => {
  it('reads raw line breaks inside JSON strings, and says so', () => {
    const raw = `[{"fault": "add subtracts", "path": "src/calc.py", "code": "def add(a, b):\n    return a - b\n"}]`;
    const r = parseMutantReply(raw, sources);
    expect(r.ok && r.proposals[0]!.code).toBe('def add(a, b):\n    return a - b\n');
    expect(r.ok && r.notes).toEqual(['the JSON in the reply was not strict: raw line breaks inside its strings were read as \\n']);
  });

  it('takes a whole file out of a Markdown fence inside the JSON string', () => {
    const r = parseMutantReply(JSON.stringify([item({ code: '```python\ndef add(a, b):\n    return a - b\n```' })]), sources);
    expect(r.ok && r.proposals[0]!.code).toBe('def add(a, b):\n    return a - b\n');
  });
});
