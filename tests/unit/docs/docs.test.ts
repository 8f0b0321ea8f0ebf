import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILES, replaceSection, withGeneratedSections } from '../../../scripts/docs-sections.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const docsFiles = readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings, code blocks left out, repeats numbered as GitHub does. */
export function anchors(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fence = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fence = !fence;
    const m = !fence && /^#{1,6} (.+)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Every relative link of a Markdown file outside code: `[text](target)`. */
function links(text: string): string[] {
  const prose = text.replace(/^\s*```[^]*?^\s*```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/.test(t));
}

describe('the README', () => {
  const readme = read('README.md');

  it('opens with the two set-up commands, the second the one CI runs', () => {
    expect(readme.split('\n').slice(0, 6).join('\n')).toBe(
      [
        '# packet-kit',
        '',
        '```bash',
        'bash scripts/setup.sh && npm start   # set up, then run the main job on the embedded defaults (no endpoint, no key)',
        'bash scripts/setup.sh && npm test    # set up, then run the whole test suite',
        '```',
      ].join('\n'),
    );
    expect(read('.ci/run')).toMatch(/^bash scripts\/setup\.sh && npm test$/m);
  });

  it('reads in ten minutes: at most 400 lines, the reference left to docs/', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(400);
    expect(readme).not.toContain('### PK101');
    for (const doc of docsFiles.filter((f) => f !== 'docs/README.md')) expect(readme, doc).toContain(`](${doc})`);
  });
});

describe('the generated sections', () => {
  it.each(Object.keys(GENERATED_FILES))('of %s are what `npm run docs` writes', (file) => {
    const text = read(file);
    for (const s of GENERATED_FILES[file]!) expect(text, s.start).toContain(s.start);
    expect(text).toBe(withGeneratedSections(file, text));
  });

  it('refuses a file that lost its markers, naming it', () => {
    expect(() => replaceSection('# no markers\n', '<!-- a:start -->', '<!-- a:end -->', 'x', 'notes/x.md')).toThrow('notes/x.md has no "<!-- a:start -->"');
    expect(replaceSection('a\n<!-- s -->\nold\n<!-- e -->\nb\n', '<!-- s -->', '<!-- e -->', 'new')).toBe('a\n<!-- s -->\n\nnew\n\n<!-- e -->\nb\n');
  });
});

describe('the links of the README and docs/', () => {
  it('finds anchors as GitHub makes them', () => {
    expect(slug('The judge: PASS is earned, never defaulted')).toBe('the-judge-pass-is-earned-never-defaulted');
    expect(slug('`prompt.mdx`')).toBe('promptmdx');
    expect([...anchors('# A\n```\n# not a heading\n```\n## A\n')]).toEqual(['a', 'a-1']);
  });

  it.each(['README.md', 'tests/README.md', ...docsFiles])('of %s all lead somewhere', (file) => {
    const broken: string[] = [];
    for (const link of links(read(file))) {
      const [target, anchor] = link.split('#') as [string, string | undefined];
      const resolved = target ? path.join(path.dirname(file), target) : file;
      let exists = false;
      try {
        exists = statSync(path.join(root, resolved)).isFile() || statSync(path.join(root, resolved)).isDirectory();
      } catch {}
      if (!exists) broken.push(`${link}: no ${resolved}`);
      else if (anchor && !anchors(read(resolved)).has(anchor)) broken.push(`${link}: no heading #${anchor} in ${resolved}`);
    }
    expect(broken).toEqual([]);
  });
});

describe('the code', () => {
  it('names only docs/ files that exist', () => {
    const missing: string[] = [];
    for (const dir of ['src', 'scripts', 'tests', '.github']) {
      for (const entry of readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || entry.parentPath.includes('fixtures')) continue;
        const file = path.join(entry.parentPath, entry.name);
        for (const m of readFileSync(file, 'utf8').matchAll(/\bdocs\/([a-z-]+\.md)\b/g)) {
          if (!docsFiles.includes(`docs/${m[1]}`)) missing.push(`${path.relative(root, file)}: docs/${m[1]}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('tests/unit/', () => {
  it('mirrors src/: each folder is a folder of src/ (or docs/, scripts/), and only the tests of the whole repository sit at the top', () => {
    const src = new Set(readdirSync(path.join(root, 'src'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name));
    const entries = readdirSync(path.join(root, 'tests/unit'), { withFileTypes: true });
    const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((f) => !src.has(f) && f !== 'docs' && f !== 'scripts')).toEqual([]);
    const top = entries.filter((e) => e.isFile() && e.name.endsWith('.test.ts')).map((e) => e.name);
    expect(top.sort()).toEqual(['architecture.test.ts', 'workflow.test.ts']);
    expect(read('tests/README.md')).toMatch(/Unit tests mirror `src\/`/);
  });
});

describe('docs/layout.md', () => {
  it('names every folder of src/', () => {
    const layout = read('docs/layout.md');
    const folders = readdirSync(path.join(root, 'src'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `src/${d.name}/`);
    expect(folders.filter((f) => !layout.includes(f))).toEqual([]);
  });
});

describe('src/docs/', () => {
  it('sits below the CLI: it imports no CLI module, and the generator that reads both is in scripts/', () => {
    const dir = path.join(root, 'src/docs');
    for (const file of readdirSync(dir)) {
      const imports = [...readFileSync(path.join(dir, file), 'utf8').matchAll(/from '([^']+)'|import\('([^']+)'\)/g)].map((m) => m[1] ?? m[2]!);
      expect(imports.filter((i) => /(^|\/)(cli|scripts)\//.test(i)), file).toEqual([]);
    }
  });
});

describe('comments and docs', () => {
  it('cite no document outside the repository', () => {
    // The words are put together here so this file does not match itself.
    const outside = new RegExp(['DESIGN', '(\\.md)?', ' section'].join(''));
    const hits: string[] = [];
    for (const dir of ['src', 'scripts', 'tests', 'docs']) {
      for (const entry of readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.(ts|js|mjs|astro|py|md)$/.test(entry.name) || entry.parentPath.includes('fixtures')) continue;
        const file = path.join(entry.parentPath, entry.name);
        readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
          if (outside.test(line)) hits.push(`${path.relative(root, file)}:${i + 1}`);
        });
      }
    }
    expect(hits).toEqual([]);
  });
});
