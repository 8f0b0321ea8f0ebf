import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** A forbidden rule as .dependency-cruiser.cjs writes it (the fields this test reads). */
interface Rule {
  name: string;
  scope?: 'module' | 'folder';
  from: { path?: string; pathNot?: string };
  to: { path?: string; pathNot?: string; circular?: boolean };
}
interface Known {
  rule: string;
  from: string;
  to: string;
}
const config = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs')) as {
  forbidden: Rule[];
  options: Record<string, unknown>;
  LAYERS: string[][];
  KNOWN_VIOLATIONS: Known[];
  faceFolders(root?: string): string[];
  faceRule(dir: string): Rule;
};

/** The path rules (not the cycle rules) that forbid an import from one file of the repo to another. */
function brokenRules(rules: readonly Rule[], from: string, to: string): string[] {
  const matches = (re: string | undefined, p: string, absent: boolean) => (re === undefined ? absent : new RegExp(re).test(p));
  return rules
    .filter((r) => r.to.path !== undefined || r.to.pathNot !== undefined)
    .filter((r) => matches(r.from.path, from, true) && !matches(r.from.pathNot, from, false) && matches(r.to.path, to, true) && !matches(r.to.pathNot, to, false))
    .map((r) => r.name);
}

const isKnown = (v: { rule: string; from: string; to: string }) => config.KNOWN_VIOLATIONS.some((k) => k.rule === v.rule && k.from === v.from && k.to === v.to);

describe('the layer order of src/ (.dependency-cruiser.cjs)', () => {
  it('places every folder of src/ once', () => {
    const placed = config.LAYERS.flat();
    expect(new Set(placed).size).toBe(placed.length);
    const folders = readdirSync(path.join(root, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((f) => !placed.includes(f))).toEqual([]);
  });

  it('forbids an import up the order and one beside, and allows one down', () => {
    const rules = config.forbidden;
    expect(brokenRules(rules, 'src/packets/packet.ts', 'src/judge/judge.ts')).toEqual(['layer-packets']);
    expect(brokenRules(rules, 'src/rehearse/rehearse-lab.ts', 'src/grade/grade.ts')).toEqual(['layer-rehearse']);
    expect(brokenRules(rules, 'src/sandbox/create.ts', 'src/cli/run-cli.ts')).toEqual(['layer-sandbox']);
    expect(brokenRules(rules, 'src/components/PacketCard.astro', 'src/pages/index.astro')).toEqual(['layer-components']);
    expect(brokenRules(rules, 'src/judge/judge.ts', 'src/packets/packet.ts')).toEqual([]);
    expect(brokenRules(rules, 'src/pages/index.astro', 'src/components/PacketCard.astro')).toEqual([]);
    expect(brokenRules(rules, 'src/content.config.ts', 'src/bundle/markdown.ts')).toEqual([]);
    // The bottom layer imports no other.
    expect(brokenRules(rules, `src/${config.LAYERS[0]![0]}/x.ts`, `src/${config.LAYERS[1]![0]}/y.ts`)).toEqual([`layer-${config.LAYERS[0]![0]}`]);
  });

  it('enters a folder with an index.ts through it only', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'packet-kit-faces-'));
    try {
      for (const f of ['alpha', 'beta']) mkdirSync(path.join(dir, f));
      writeFileSync(path.join(dir, 'beta', 'index.ts'), '');
      const faces = config.faceFolders(dir);
      expect(faces).toEqual(['src/beta']);
      const rules = faces.map(config.faceRule);
      expect(brokenRules(rules, 'src/alpha/a.ts', 'src/beta/inner.ts')).toEqual(['face-beta']);
      expect(brokenRules(rules, 'src/alpha/a.ts', 'src/beta/index.ts')).toEqual([]);
      expect(brokenRules(rules, 'src/beta/index.ts', 'src/beta/inner.ts')).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('module boundaries (dependency-cruiser over src/)', () => {
  let result: ICruiseResult;
  beforeAll(async () => {
    const cwd = process.cwd();
    process.chdir(root);
    try {
      const out = await cruise(['src'], { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden } } as never);
      result = out.output as ICruiseResult;
    } finally {
      process.chdir(cwd);
    }
  }, 60_000);

  it('has no import cycle, no folder loop, and no import up or beside the layer order', () => {
    // The cruise read the TypeScript sources (swc parses them), not just the three .js files.
    expect(result.summary.totalCruised).toBeGreaterThan(100);
    const violations = result.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to, cycle: v.cycle?.map((c) => c.name) }));
    const shown = (v: (typeof violations)[number]) => `${v.rule}: ${v.from} -> ${v.to}${v.cycle ? ` (cycle: ${v.cycle.join(' -> ')})` : ''}`;
    expect(violations.filter((v) => !isKnown(v)).map(shown)).toEqual([]);
    // A known violation that no longer happens is taken off the list.
    expect(config.KNOWN_VIOLATIONS.filter((k) => !violations.some((v) => v.rule === k.rule && v.from === k.from && v.to === k.to))).toEqual([]);
  });

  it('has each index.ts at a folder top imported from outside its folder', () => {
    const importedFromOutside = (dir: string) =>
      result.modules.some((m) => !m.source.startsWith(`${dir}/`) && m.dependencies.some((d) => d.resolved === `${dir}/index.ts`));
    expect(config.faceFolders().filter((dir) => !importedFromOutside(dir))).toEqual([]);
  });
});

/** Every .astro file under src/, repo-relative. */
function astroFiles(dir = path.join(root, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return astroFiles(p);
    return e.name.endsWith('.astro') ? [path.relative(root, p).split(path.sep).join('/')] : [];
  });
}

/**
 * The module specifiers an .astro file imports: in its frontmatter (between the leading `---`
 * fences) and in its `<script>` elements, static and dynamic imports alike.
 */
function astroImports(text: string): string[] {
  const fence = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  const code = [fence?.[1] ?? '', ...[...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!)].join('\n');
  const specs = [
    ...code.matchAll(/^\s*import\s+(?:type\s+)?(?:[\w*{}\s,$]+\s+from\s+)?['"]([^'"]+)['"]/gm),
    ...code.matchAll(/^\s*export\s+(?:type\s+)?[\w*{}\s,$]+\s+from\s+['"]([^'"]+)['"]/gm),
    ...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return [...new Set(specs)];
}

describe('the .astro files keep the same layer order (dependency-cruiser does not read them)', () => {
  it('reads imports from the frontmatter and the scripts, and nothing else', () => {
    const text = [
      '---',
      "import Base from '../layouts/Base.astro';",
      "import type { X } from '../site/x.ts';",
      "import '../styles/site.css';",
      '---',
      '<p>import nothing from "../pages/not-code.ts"</p>',
      '<script>',
      "  import { mount } from '../site/client.ts';",
      "  const later = import('../site/lazy.ts');",
      '</script>',
    ].join('\n');
    expect(astroImports(text)).toEqual(['../layouts/Base.astro', '../site/x.ts', '../styles/site.css', '../site/client.ts', '../site/lazy.ts']);
  });

  it('imports files that exist, down the layer order', () => {
    const files = astroFiles();
    expect(files.length).toBeGreaterThan(20);
    const edges = files.flatMap((file) =>
      astroImports(readFileSync(path.join(root, file), 'utf8'))
        .filter((s) => s.startsWith('.'))
        .map((s) => ({ from: file, to: path.posix.normalize(path.posix.join(path.posix.dirname(file), s)) })),
    );
    // The pages, components and report site all import something of src/.
    expect(edges.length).toBeGreaterThan(80);
    expect(edges.filter((e) => !existsSync(path.join(root, e.to))).map((e) => `${e.from} -> ${e.to} (no such file)`)).toEqual([]);
    const broken = edges.flatMap((e) => brokenRules(config.forbidden, e.from, e.to).map((rule) => ({ rule, ...e })));
    expect(broken.filter((b) => !isKnown(b)).map((b) => `${b.rule}: ${b.from} -> ${b.to}`)).toEqual([]);
  });
});
