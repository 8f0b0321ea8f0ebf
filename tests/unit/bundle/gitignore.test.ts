import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalPath, lockPath, siblingNames } from '../../../src/bundle/publish.ts';

const root = path.resolve(import.meta.dirname, '../../..');

/** The paths of `paths` (relative to the repository) that git would not ignore. */
function notIgnored(paths: string[]): string[] {
  let ignored = '';
  try {
    ignored = execFileSync('git', ['check-ignore', '--no-index', ...paths], { cwd: root, encoding: 'utf8' });
  } catch (err) {
    // Exit 1: none of them is ignored.
    if ((err as { status?: number }).status !== 1) throw err;
  }
  const set = new Set(ignored.split('\n').filter(Boolean));
  return paths.filter((p) => !set.has(p));
}

describe('.gitignore', () => {
  it('covers the work folders a killed build leaves beside dist/, by the names the build gives them', () => {
    const tag = String(process.pid);
    const names = siblingNames(path.join(root, 'dist'), tag);
    const folders = [names.staging, names.old, names.search].map((p) => `${path.relative(root, p)}/`);
    expect(folders).toEqual([`.dist-staging-${tag}/`, `.dist-old-${tag}/`, `.dist-search-${tag}/`]);
    const files = [...folders.map((f) => `${f}index.html`), ...[journalPath, lockPath].map((of) => path.relative(root, of(path.join(root, 'dist'))))];
    expect(notIgnored([...folders, ...files])).toEqual([]);
  });

  it('covers the staging folder of a `packet new` stopped half way, and not the packets beside it', () => {
    expect(notIgnored([`packets/.new-retry-budget-${process.pid}/prompt.mdx`])).toEqual([]);
    expect(notIgnored(['packets/retry-budget/prompt.mdx', 'src/bundle/publish.ts', 'docs/format.md'])).toEqual(['packets/retry-budget/prompt.mdx', 'src/bundle/publish.ts', 'docs/format.md']);
  });
});
