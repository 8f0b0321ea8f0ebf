import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/run-cli.ts';

/**
 * What each quick command loads: the commands that touch one packet or none answer at once
 * because each loads only what it reads (the timings are in `npm run bench`, BENCH_ONLY=cli).
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const BIN = path.join(ROOT, 'src/cli/bin.js');
const HOOK = path.join(ROOT, 'tests/support/record-modules.mjs');
let project: string;

beforeAll(async () => {
  project = mkdtempSync(path.join(tmpdir(), 'packet-kit-startup-'));
  expect(await runCli(['new', 'demo'], memoryIo(project))).toBe(0);
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** The modules `packet <args>` loads, as paths in the kit (src/...) or package names. */
function loads(args: string[]): string[] {
  const file = path.join(project, 'modules.txt');
  const r = spawnSync(process.execPath, ['--import', HOOK, BIN, ...args], { cwd: project, env: { ...process.env, PACKET_KIT_MODULES_FILE: file }, encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 2) throw new Error(`packet ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((u) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u)?.[1] ?? u.replace(`file://${ROOT}/`, ''));
}

const HEAVY = ['zod', 'astro', 'openai', '@secretlint/core', 'micromark', 'yaml', 'unified'];

describe('the quick commands', () => {
  it('answer `packet --help` and `packet explain CODE` from the specs and the catalog alone', () => {
    for (const args of [['--help'], ['explain', 'PK106'], ['explain', 'UnknownField']]) {
      const found = loads(args);
      expect(found.filter((m) => HEAVY.includes(m)), args.join(' ')).toEqual([]);
      expect(found.filter((m) => m.startsWith('src/cli/commands/') && !m.endsWith('explain.ts')), args.join(' ')).toEqual([]);
    }
  });

  it('explain a field from the schemas, without the lint rules, the Markdown parser or the secret scanner', () => {
    const found = loads(['explain', 'budget.tokens']);
    expect(found).toContain('zod');
    expect(found.filter((m) => m.startsWith('src/lint/') || ['@secretlint/core', 'micromark', 'unified'].includes(m))).toEqual([]);
  });

  it('check a packet whose lint is cached without loading the rules, the Markdown parser or the secret scanner', () => {
    loads(['check', 'demo']); // fills the lint cache
    const found = loads(['check', 'demo']);
    expect(found).toContain('src/lint/engine.ts');
    expect(found.filter((m) => m.startsWith('src/lint/rules/') || m === 'src/lint/markdown.ts' || ['@secretlint/core', 'micromark'].includes(m))).toEqual([]);
    // The first run did lint: its results are what the second reads.
    expect(loads(['check', 'demo', '--no-cache'])).toContain('src/lint/rules/index.ts');
  });
});
