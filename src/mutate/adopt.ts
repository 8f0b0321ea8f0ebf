/**
 * Adopt a proposed mutant as a named failure mode: its file becomes `mutants/<mode-id>/<path>`,
 * and `failures.mdx` gets an entry skeleton (id, title from the fault, the mutant) and a
 * narrative section to fill in. The skeleton leaves out `signal` and `caps` on purpose, with a
 * comment saying what goes there, so `packet check` names what is still missing, at its line.
 *
 * Only a mutant that ran and was judged can be adopted (survived, or killed), and only while the
 * sample file it mutated is the one the report recorded.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { forMarkdown, inertJson } from '../errors/escape.ts';
import { splitFrontmatter } from '../packets/frontmatter.ts';
import type { CodePacket } from '../packets/packet.ts';
import { kebabId } from '../packets/schema/common.ts';
import { writeFileWhole } from '../runs/output-folder.ts';
import type { MutantRecord, MutationReport } from './report.ts';

/** Why an adoption was refused, and what to do. */
export interface AdoptRefusal {
  ok: false;
  reason: string;
  fix: string;
}

/** What an adoption wrote (paths relative to the packet folder). */
export interface Adopted {
  ok: true;
  mutant: MutantRecord;
  wrote: string[];
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

/** The mutant to adopt, or why it cannot be. Pure. */
export function adoptable(report: MutationReport, n: number, modeId: string, packet: CodePacket, sampleLayer: ReadonlyMap<string, string>): MutantRecord | AdoptRefusal {
  const again = `rerun \`npx packet mutate ${packet.id}\` and adopt from the new report`;
  if (report.packet !== packet.id) return { ok: false, reason: `the report is about "${report.packet}"`, fix: `Pass the report of ${packet.id} with --out.` };
  const m = report.mutants.find((x) => x.id === n);
  if (!m) return { ok: false, reason: `the report has mutants #1 to #${report.mutants.length}`, fix: 'Pick a number the console summary or mutation-report.html shows.' };
  if (m.status === 'duplicate') return { ok: false, reason: `it repeats mutant #${m.duplicateOf}`, fix: `Adopt #${m.duplicateOf} instead.` };
  if (m.status !== 'survived' && m.status !== 'killed') {
    return { ok: false, reason: `it is ${m.status} (${m.reason}); only a mutant the tests judged, survived or killed, reproduces a failure`, fix: 'Pick a survivor (or a killed mutant that names a failure worth keeping).' };
  }
  if (!kebabId.safeParse(modeId).success) return { ok: false, reason: `"${modeId}" is not a mode id`, fix: 'Give --as a lowercase kebab-case id such as "refusal-exits-zero".' };
  if (packet.kind !== 'takehome') return { ok: false, reason: `${packet.id} has no failure catalog (failures.mdx) to adopt a mode into`, fix: 'Adopt mutants into a take-home packet.' };
  if (packet.failures.data.modes.some((mode) => mode.id === modeId)) return { ok: false, reason: `the failure catalog already has a mode "${modeId}"`, fix: 'Choose another id with --as.' };
  if (packet.trees.mutants[modeId]) return { ok: false, reason: `mutants/${modeId}/ already exists`, fix: 'Choose another id with --as, or remove that folder.' };
  const recorded = report.sources.find((s) => s.path === m.path)?.sha256;
  const now = sampleLayer.get(m.path);
  if (!recorded || now === undefined || sha256(now) !== recorded) return { ok: false, reason: `the sample's ${m.path} changed since the report was made`, fix: `The mutant was made from the old file: ${again}.` };
  return m;
}

/** The failure-catalog entry skeleton, indented for a block list whose dashes sit at `indent`. */
export function modeSkeleton(modeId: string, m: MutantRecord, indent: number): string {
  const pad = ' '.repeat(indent);
  const title = m.fault.length > 120 ? `${m.fault.slice(0, 117)}...` : m.fault;
  return [
    `${pad}- id: ${modeId}`,
    `${pad}  title: ${inertJson(JSON.stringify(title))}`,
    `${pad}  mutant: mutants/${modeId}`,
    `${pad}  # Adopted from \`packet mutate\` (mutant #${m.id}, ${m.status}). Still to write, then \`npx packet check\`:`,
    `${pad}  # signal: a pattern that matches this mutant and not the sample, e.g.`,
    `${pad}  #   signal: { pattern: "...", in: diff, files: [${inertJson(JSON.stringify(m.path))}] }`,
    `${pad}  # caps: the rubric row this failure caps, e.g. caps: { row: <row id>, max: 0 }`,
  ].join('\n');
}

/** failures.mdx with the skeleton added at the end of `modes`, and a narrative section at the end of the body; or why it cannot be placed. */
export function withModeEntry(failuresText: string, modeId: string, m: MutantRecord, about: { model: string; date: string }): string | { reason: string } {
  const split = splitFrontmatter(failuresText);
  if (!split.ok) return { reason: 'failures.mdx has no YAML frontmatter' };
  const doc = parseDocument(split.yaml);
  const root = doc.contents;
  const last = isMap(root) ? root.items.at(-1) : undefined;
  const key = isScalar(last?.key) ? last.key.value : last?.key;
  if (!last || key !== 'modes' || !isSeq(last.value) || last.value.flow) return { reason: 'its frontmatter does not end with `modes:` as a block list' };
  const first = last.value.items[0] as { range?: [number, number, number] } | undefined;
  const offset = first?.range?.[0];
  const lineStart = offset === undefined ? -1 : split.yaml.lastIndexOf('\n', offset - 1) + 1;
  // The item's node starts after its dash: the dash's column is where the new entry's goes.
  const dashAt = offset === undefined ? -1 : split.yaml.slice(lineStart, offset).indexOf('-');
  const dash = dashAt >= 0 ? dashAt : 2;
  const yaml = `${split.yaml.replace(/\s+$/, '')}\n${modeSkeleton(modeId, m, dash)}\n`;
  const verdict = m.status === 'survived' ? 'it survived every test, visible and held out' : `it was killed by ${m.killedBy?.map((t) => forMarkdown(t)).join(', ') ?? 'the tests'}`;
  const section = [
    `## ${forMarkdown(m.fault)}`,
    '',
    `In ${modeId}, ${forMarkdown(m.path)} is changed so that: ${forMarkdown(m.fault)}. Proposed by ${forMarkdown(about.model)} on ${forMarkdown(about.date.slice(0, 10))} as mutant #${m.id} of \`packet mutate\`; ${verdict}.`,
    'Write how a submission dies this way, and what a reviewer sees.',
  ].join('\n');
  return `---\n${yaml}---\n${split.body.replace(/\s+$/, '')}\n\n${section}\n`;
}

/** Adopt mutant `n` of `report` as `modeId` in the packet folder `packetDir`. */
export async function adoptMutant(o: { packet: CodePacket; packetDir: string; report: MutationReport; n: number; modeId: string; sampleLayer: ReadonlyMap<string, string> }): Promise<Adopted | AdoptRefusal> {
  const m = adoptable(o.report, o.n, o.modeId, o.packet, o.sampleLayer);
  if ('ok' in m) return m;
  const mutantFile = path.join(o.packetDir, 'mutants', o.modeId, m.path);
  if (await exists(path.join(o.packetDir, 'mutants', o.modeId))) return { ok: false, reason: `mutants/${o.modeId}/ already exists`, fix: 'Choose another id with --as, or remove that folder.' };
  const failuresFile = path.join(o.packetDir, 'failures.mdx');
  const next = withModeEntry(await readFile(failuresFile, 'utf8'), o.modeId, m, { model: o.report.model, date: o.report.date });
  if (typeof next !== 'string') {
    return { ok: false, reason: `the failure catalog cannot take the entry: ${next.reason}`, fix: `Add the entry by hand:\n${modeSkeleton(o.modeId, m, 2)}` };
  }
  // Whole or not at all: a write that fails (a read-only folder, a full disk) leaves the packet as it was, and is thrown with its path.
  const modeDir = path.join(o.packetDir, 'mutants', o.modeId);
  try {
    await mkdir(path.dirname(mutantFile), { recursive: true });
    await writeFileWhole(mutantFile, m.code!);
    await writeFileWhole(failuresFile, next);
  } catch (err) {
    await rm(modeDir, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
  return { ok: true, mutant: m, wrote: [`mutants/${o.modeId}/${m.path}`, 'failures.mdx'] };
}
