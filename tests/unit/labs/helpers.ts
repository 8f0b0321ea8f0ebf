import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { TEMPLATES } from '../../../src/cli/commands/new.ts';
import type { Diagnostic } from '../../../src/errors/diagnostic.ts';
import type { Lab } from '../../../src/packets/packet.ts';
import { parsePacket, type ParseResult } from '../../../src/packets/parse.ts';
import type { PacketSource } from '../../../src/packets/source.ts';

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

/** The lab (or drill) scaffold's files, placeholders filled. */
export function scaffoldFiles(kind: 'lab' | 'drill', id = 'mem'): Record<string, string> {
  const files = readTree(TEMPLATES[kind]);
  for (const [rel, text] of Object.entries(files)) {
    if (rel.endsWith('.mdx')) files[rel] = text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => ({ title: 'Memory lab', id, date: '2026-11-29' })[key] ?? key);
  }
  return files;
}

/** Parse a packet held in memory, as the filesystem adapter would read it. */
export function parseMemory(files: Record<string, string>, id = 'mem'): ParseResult {
  const paths = Object.keys(files).sort();
  const starterText: Record<string, string> = {};
  for (const p of paths) if (p.startsWith('starter/')) starterText[p.slice('starter/'.length)] = files[p]!;
  const source: PacketSource = {
    id,
    folder: id,
    dir: `packets/${id}`,
    parts: { prompt: files['prompt.mdx'], rubric: files['rubric.mdx'], sample: files['sample.mdx'], failures: files['failures.mdx'], assistant: files['assistant.mdx'] },
    ...(files['assistant.mdx'] !== undefined ? { starterText } : {}),
    entries: paths.map((p) => ({ path: p, kind: 'file' as const, size: Buffer.byteLength(files[p]!), sha256: createHash('sha256').update(files[p]!).digest('hex') })),
    problems: [],
  };
  return parsePacket(source);
}

/** The scaffold lab with some files changed (a string) or removed (null), parsed. */
export function labWith(change: (files: Record<string, string>) => Record<string, string | null> = () => ({})): { packet?: Lab; diagnostics: Diagnostic[]; files: Record<string, string> } {
  const files = scaffoldFiles('lab');
  for (const [rel, text] of Object.entries(change({ ...files }))) {
    if (text === null) delete files[rel];
    else files[rel] = text;
  }
  const { packet, diagnostics } = parseMemory(files);
  if (packet && packet.kind !== 'lab') throw new Error(`the scaffold lab parsed as a ${packet.kind}`);
  return { ...(packet ? { packet } : {}), diagnostics, files };
}

/** Replace text, failing loudly when it is absent. */
export function edit(text: string | undefined, from: string, to: string): string {
  if (text === undefined || !text.includes(from)) throw new Error(`edit: "${from}" not found`);
  return text.replace(from, to);
}

/** `file:line CODE message` of the errors, for compact assertions. */
export function errors(list: readonly Diagnostic[]): string[] {
  return list.filter((d) => d.severity === 'error').map((d) => `${d.file}:${d.line ?? '-'} ${d.code} ${d.message}`);
}
