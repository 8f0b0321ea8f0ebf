import { describe, expect, it } from 'vitest';
import { codeLanguage } from '../../../src/site/code-lang.ts';
import { fileAnchor, fileTree } from '../../../src/site/file-tree.ts';
import { formatBytes } from '../../../src/site/format.ts';
import { dropLeadingHeading, nestedPrompt, shiftHeadings } from '../../../src/site/markdown-text.ts';

describe('site text helpers', () => {
  it('build a file tree, folders first', () => {
    expect(fileTree(['tests/test_a.py', 'README.md', 'src/b.py', 'src/a/x.py', 'tests/__init__.py'])).toEqual([
      { name: 'src', path: 'src', children: [{ name: 'a', path: 'src/a', children: [{ name: 'x.py', path: 'src/a/x.py' }] }, { name: 'b.py', path: 'src/b.py' }] },
      { name: 'tests', path: 'tests', children: [{ name: '__init__.py', path: 'tests/__init__.py' }, { name: 'test_a.py', path: 'tests/test_a.py' }] },
      { name: 'README.md', path: 'README.md' },
    ]);
    expect(fileAnchor('tests/test_a.py')).toBe('file-tests-test-a-py');
  });

  it('pick a highlighter language by file name', () => {
    expect(codeLanguage('src/gate.py')).toBe('python');
    expect(codeLanguage('deploy/manifest.json')).toBe('json');
    expect(codeLanguage('Makefile')).toBe('makefile');
    expect(codeLanguage('notes')).toBe('plaintext');
    expect(codeLanguage('.env.example')).toBe('plaintext');
  });

  it('format sizes', () => {
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(12_700)).toBe('12.4 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});

describe('dropLeadingHeading', () => {
  it('drops a first heading that repeats the section heading, and nothing else', () => {
    expect(dropLeadingHeading('<h1 id="x">Reviewer  notes</h1>\n<p>a</p>', 'Reviewer notes')).toBe('<p>a</p>');
    expect(dropLeadingHeading('<h2>How to score</h2><p>a</p>', 'Reviewer notes')).toBe('<h2>How to score</h2><p>a</p>');
    expect(dropLeadingHeading('<p>a</p><h1>Reviewer notes</h1>', 'Reviewer notes')).toBe('<p>a</p><h1>Reviewer notes</h1>');
  });
});

describe('shiftHeadings', () => {
  it('nests rendered headings under the page outline, leaving code alone', () => {
    const html = '<h1 id="a">A</h1><p>x</p><h2>B</h2><pre><code>&lt;h1>not a heading&lt;/h1></code></pre><h5>C</h5><hr>';
    expect(shiftHeadings(html, 2)).toBe('<h3 id="a">A</h3><p>x</p><h4>B</h4><pre><code>&lt;h1>not a heading&lt;/h1></code></pre><h6>C</h6><hr>');
  });
});

describe('nestedPrompt', () => {
  it('drops a title that repeats the page\'s and moves the prompt\'s sections under the page\'s h2', () => {
    expect(nestedPrompt('<h1>Retry  budget</h1><h2>Rules</h2><p>x</p>', 'Retry budget')).toBe('<h3>Rules</h3><p>x</p>');
    expect(nestedPrompt('<h1>Another title</h1><h2>Rules</h2>', 'Retry budget')).toBe('<h3>Another title</h3><h4>Rules</h4>');
  });
});

describe('the error reference page', () => {
  it('groups every catalog entry by area, with the lint rules\' examples, and splits code spans out of the text', async () => {
    const { errorReferenceAreas, codeSpans } = await import('../../../src/site/error-reference.ts');
    const { catalogEntries } = await import('../../../src/errors/catalog.ts');
    const areas = errorReferenceAreas(new Map([['PK201', { rule: 'prompt-length', summary: 's', bad: 'b', good: 'g' }]]));
    expect(areas.map((a) => a.id)).toEqual(['pk1xx', 'pk2xx', 'pk3xx', 'pk4xx', 'pk5xx', 'pk6xx', 'pk8xx', 'pk9xx']);
    expect(areas.flatMap((a) => a.entries.map((e) => e.code))).toEqual(catalogEntries().map((e) => e.code));
    expect(areas[1]!.entries[0]).toMatchObject({ code: 'PK201', example: { rule: 'prompt-length' } });
    expect(areas[0]!.entries.find((e) => e.code === 'PK106')!.message).toBe('"<field>" is not a field of <at>. Did you mean "<suggestion>"?');
    expect(codeSpans('Run `npx packet check` now')).toEqual([
      { code: false, text: 'Run ' },
      { code: true, text: 'npx packet check' },
      { code: false, text: ' now' },
    ]);
    expect(codeSpans('a ` b')).toEqual([{ code: false, text: 'a ` b' }]);
  });
});
