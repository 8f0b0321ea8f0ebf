import { createTwoFilesPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { fencedBlocks, parseReply, unsafePathReason } from '../../../src/llm/reply-parse.ts';

const base = new Map([
  ['src/app.py', 'def f():\n    return 1\n\n\ndef g():\n    return 2\n'],
  ['tests/test_app.py', 'import unittest\n'],
]);

describe('fenced blocks with a path', () => {
  it('reads whole files from blocks whose info string names the path', () => {
    const reply = [
      'Here is the fix.',
      '',
      '```python path=src/app.py',
      'def f():',
      '    return 3',
      '```',
      '',
      "~~~markdown path='NOTES.md' title=x",
      '# Notes',
      '```not a fence close```',
      '~~~',
      '',
      '````text path="docs/with space.md"',
      'a ``` b',
      '```',
      '````',
      '```text path=`not-a-fence`',
      'backticks in a backtick fence info string: not a fence',
      '```',
      '```python',
      'print("no path: not a file")',
      '```',
    ].join('\n');
    const r = parseReply(reply, base);
    expect(r.ok && r.format).toBe('files');
    expect(r.ok && Object.fromEntries(r.files)).toEqual({
      'src/app.py': 'def f():\n    return 3\n',
      'NOTES.md': '# Notes\n```not a fence close```\n',
      'docs/with space.md': 'a ``` b\n```\n',
    });
  });

  it('takes the last of two blocks for one path, and says so', () => {
    const r = parseReply('```py path=./a.py\n1\n```\n```py path=a.py\n2\n```\n', base);
    expect(r).toMatchObject({ ok: true, notes: ['a.py is given twice; the last block is used'] });
    expect(r.ok && r.files.get('a.py')).toBe('2\n');
  });

  it('strips the fence indentation and handles CRLF', () => {
    expect(fencedBlocks('  ```py path=x.py\r\n  a\r\n    b\r\n  ```\r\n')).toEqual([{ info: 'py path=x.py', content: 'a\n  b\n' }]);
  });

  it('refuses paths that leave the workspace', () => {
    const bad: [string, string][] = [
      ['../etc/passwd', 'climbs out of the workspace with ".."'],
      ['src/../../x', 'climbs out of the workspace with ".."'],
      ['/etc/passwd', 'is absolute'],
      ['C:/x.py', 'is absolute'],
      ['~/x', 'is absolute'],
      ['src\\x.py', 'contains a backslash'],
      ['.git/hooks/pre-commit', 'writes inside .git'],
      ['src//x.py', 'has an empty or "." segment'],
      ['a\u0000b', 'contains a control character'],
    ];
    for (const [p, why] of bad) {
      expect(unsafePathReason(p)).toBe(why);
      expect(parseReply(`\`\`\`text path=${p}\nx\n\`\`\`\n`, base)).toEqual({ ok: false, reason: `the path "${p}" ${why}` });
    }
    expect(unsafePathReason('src/ok_file.py')).toBeNull();
  });

  it('rejects a reply with no file at all', () => {
    expect(parseReply('I cannot help with that.', base)).toEqual({ ok: false, noCode: true, reason: 'the reply has no fenced block with a path= attribute and no unified diff' });
  });
});

describe('unified diffs', () => {
  const fixed = base.get('src/app.py')!.replace('return 2', 'return 20');

  it('applies a git-style diff to the files the model was given', () => {
    const patch = createTwoFilesPatch('a/src/app.py', 'b/src/app.py', base.get('src/app.py')!, fixed);
    const r = parseReply(`Patch:\n\n\`\`\`diff\n${patch}\`\`\`\n`, base);
    expect(r).toMatchObject({ ok: true, format: 'diff', deleted: [] });
    expect(r.ok && r.files.get('src/app.py')).toBe(fixed);
  });

  it('applies a bare diff, creates and deletes files', () => {
    const create = createTwoFilesPatch('/dev/null', 'b/NOTES.md', '', 'new notes\n');
    const remove = createTwoFilesPatch('a/tests/test_app.py', '/dev/null', base.get('tests/test_app.py')!, '');
    const r = parseReply(`${create}${remove}`, base);
    expect(r.ok && Object.fromEntries(r.files)).toEqual({ 'NOTES.md': 'new notes\n' });
    expect(r.ok && r.deleted).toEqual(['tests/test_app.py']);
  });

  it('refuses a diff that does not apply, names a file it was not given, or makes a symlink', () => {
    const stale = createTwoFilesPatch('a/src/app.py', 'b/src/app.py', 'something else\n', 'x\n');
    expect(parseReply(stale, base)).toEqual({ ok: false, reason: 'the diff for "src/app.py" does not apply to the file the model was given' });
    const unknown = createTwoFilesPatch('a/src/other.py', 'b/src/other.py', 'a\n', 'b\n');
    expect(parseReply(unknown, base)).toEqual({ ok: false, reason: 'the diff changes "src/other.py", a file the model was not given' });
    const link = 'diff --git a/evil b/evil\nnew file mode 120000\nindex 0000000..1111111\n--- /dev/null\n+++ b/evil\n@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n';
    expect(parseReply(link, base)).toEqual({ ok: false, reason: 'the diff makes or changes a symlink (evil); symlinks are refused' });
    const escape = createTwoFilesPatch('a/../x', 'b/../x', 'a\n', 'b\n');
    expect(parseReply(escape, base)).toEqual({ ok: false, reason: 'the path "../x" climbs out of the workspace with ".."' });
  });
});
