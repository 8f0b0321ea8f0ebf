import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from '../../../src/errors/diagnostic.ts';
import { lintPacket, type LintOptions } from '../../../src/lint/engine.ts';
import { fsPacketFiles, memoryPacketFiles, type PacketFiles } from '../../../src/lint/files.ts';
import { loadPackets } from '../../../src/packets/load.ts';
import type { Packet, Takehome } from '../../../src/packets/packet.ts';
import { parsePacket } from '../../../src/packets/parse.ts';
import type { PacketSource } from '../../../src/packets/source.ts';
import { TEMPLATES } from '../../../src/cli/commands/new.ts';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/**
 * The lint fixtures: `<rule-id>/{pass,fail}/`. A take-home fixture is the four parts plus the
 * files it changes (the code trees it does not change come from the scaffold template); a lab's
 * or a drill's is the whole packet.
 */
export const FIXTURES = 'tests/fixtures/lint';

/**
 * Load the pass and fail packets of one rule's fixture folder, checking they are otherwise valid.
 * Each is composed in a temporary project at the same relative path, so diagnostics name
 * `tests/fixtures/lint/<rule>/<side>/...` as if the fixture were a whole packet.
 */
export async function loadFixture(rule: string): Promise<{ pass: Packet; fail: Packet; validation: Diagnostic[]; files: PacketFiles }> {
  const root = fixtureProject();
  const { packets, diagnostics } = await loadPackets({ packetsDir: `${FIXTURES}/${rule}`, cwd: root });
  const pass = packets.find((p) => p.id === 'pass');
  const fail = packets.find((p) => p.id === 'fail');
  if (!pass || !fail) throw new Error(`fixture ${rule} lacks a pass or a fail packet: ${JSON.stringify(diagnostics)}`);
  return { pass, fail, validation: diagnostics, files: fsPacketFiles(root) };
}

let composed: string | undefined;

/**
 * A temporary project holding every lint fixture as a whole packet at its own relative path
 * (`tests/fixtures/lint/<rule>/<side>/`): the template's code trees, then the fixture's files.
 * Composed once per test process.
 */
export function fixtureProject(): string {
  if (composed) return composed;
  const root = mkdtempSync(path.join(tmpdir(), 'packet-lint-fixtures-'));
  for (const rule of readdirSync(path.join(ROOT, FIXTURES))) {
    for (const side of readdirSync(path.join(ROOT, FIXTURES, rule))) {
      const dest = path.join(root, FIXTURES, rule, side);
      const prompt = readFileSync(path.join(ROOT, FIXTURES, rule, side, 'prompt.mdx'), 'utf8');
      const code = { recursive: true, filter: (src: string) => !src.endsWith('.mdx') && !/__pycache__|\.pyc$/.test(src) };
      // A take-home fixture gets the scaffold's trees, a lab fixture the lab scaffold's; a drill has no code.
      if (/^kind: lab$/m.test(prompt)) cpSync(TEMPLATES.lab, dest, code);
      else if (!/^kind: drill$/m.test(prompt)) cpSync(TEMPLATES.takehome, dest, code);
      cpSync(path.join(ROOT, FIXTURES, rule, side), dest, { recursive: true });
      // A fixture that needs a scaffold file gone (the lab without a README) lists it in `.without`.
      const without = path.join(dest, '.without');
      if (existsSync(without)) {
        for (const rel of readFileSync(without, 'utf8').split('\n').filter(Boolean)) rmSync(path.join(dest, rel));
        rmSync(without);
      }
      // The template's replies that the fixture's own failure catalog does not name would be unused (PK130).
      if (existsSync(path.join(dest, 'failures.mdx'))) {
        const named = new Set([...readFileSync(path.join(dest, 'failures.mdx'), 'utf8').matchAll(/reply: replies\/(\S+)/g)].map((m) => m[1]!));
        for (const reply of readdirSync(path.join(dest, 'replies'))) if (reply !== 'sample.md' && !named.has(reply)) rmSync(path.join(dest, 'replies', reply));
      }
    }
  }
  composed = root;
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  return root;
}

function readTree(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    if (entry.name === '__pycache__' || entry.name.endsWith('.pyc')) continue;
    const childRel = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(out, readTree(dir, childRel));
    else out[childRel] = readFileSync(path.join(dir, childRel), 'utf8');
  }
  return out;
}

/** The scaffold template's files, placeholders filled. */
export function templateFiles(id = 'mem'): Record<string, string> {
  const files = readTree(TEMPLATES.takehome);
  for (const [rel, text] of Object.entries(files)) {
    if (rel.endsWith('.mdx')) {
      files[rel] = text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => ({ title: 'Memory packet', id, date: '2026-11-29' })[key] ?? key);
    }
  }
  return files;
}

/** Replace `from` by `to` in a text, failing loudly when `from` is absent (an edit that does nothing tests nothing). */
export function edit(text: string | undefined, from: string, to: string): string {
  if (text === undefined || !text.includes(from)) throw new Error(`edit: "${from}" not found`);
  return text.replace(from, to);
}

/**
 * A packet in memory: the scaffold template with some files replaced (a string), added, or
 * removed (null). Returns the parsed packet and a file reader over the same files.
 */
export function memoryPacket(
  change: (files: Record<string, string>) => Record<string, string | null> = () => ({}),
  id = 'mem',
): { packet: Takehome; files: PacketFiles; diagnostics: Diagnostic[] } {
  const files = templateFiles(id);
  for (const [rel, text] of Object.entries(change({ ...files }))) {
    if (text === null) {
      for (const key of Object.keys(files)) if (key === rel || key.startsWith(`${rel}/`)) delete files[key];
    } else files[rel] = text;
  }
  const paths = Object.keys(files).sort();
  const source: PacketSource = {
    id,
    folder: id,
    dir: `packets/${id}`,
    parts: {
      prompt: files['prompt.mdx'],
      rubric: files['rubric.mdx'],
      sample: files['sample.mdx'],
      failures: files['failures.mdx'],
    },
    entries: paths.map((p) => ({
      path: p,
      kind: 'file' as const,
      size: Buffer.byteLength(files[p]!),
      sha256: createHash('sha256').update(files[p]!).digest('hex'),
    })),
    problems: [],
  };
  const { packet, diagnostics } = parsePacket(source);
  if (packet?.kind !== 'takehome') throw new Error(`memory packet does not parse: ${diagnostics.map((d) => `${d.file}:${d.line} ${d.code} ${d.message}`).join('\n')}`);
  return { packet, files: memoryPacketFiles({ [id]: files }), diagnostics };
}

/** Lint a memory packet (see {@link memoryPacket}). */
export async function lintMemory(
  change: (files: Record<string, string>) => Record<string, string | null> = () => ({}),
  options: Omit<LintOptions, 'files'> = {},
): Promise<Diagnostic[]> {
  const { packet, files } = memoryPacket(change);
  return lintPacket(packet, { ...options, files });
}

/** `file:line:col CODE rule`, for compact assertions. */
export function brief(d: Diagnostic): string {
  return `${d.file}:${d.line ?? '-'}:${d.column ?? '-'} ${d.code} ${d.severity} ${d.rule ?? ''}`.trim();
}
