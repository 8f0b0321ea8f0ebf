/**
 * A packet's calibration set: its sample and each mutant, laid over the candidate zip as a
 * candidate would send them back, become anonymous submissions (`cal-01.zip` ... in a seeded
 * order, names carrying nothing of their origin), and the key of their expected decisions,
 * which stays with the hiring lead. Pure apart from reading the packet's trees.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { buildCandidateZip } from '../bundle/candidate-zip.ts';
import { writeZip } from '../bundle/zip-writer.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { CALIBRATION_KEY_KIND } from '../judge/scorecard-format.ts';
import type { Scorecard } from '../judge/scorecard.ts';
import { decide } from '../judge/score.ts';
import { failureModes, type CodePacket } from '../packets/packet.ts';

/** Version of the calibration key. */
export const CALIBRATION_KEY_SCHEMA_VERSION = 1;

/** Where a calibration submission comes from: the sample, or the mutant of a failure mode. */
export type CalibrationSource = 'sample' | `mutant:${string}`;

/** One anonymous submission of the set, before grading. */
export interface CalibrationSubmission {
  /** `cal-01` ...: its file is `<name>.zip`. */
  name: string;
  source: CalibrationSource;
  /** The zip, entries at its root as `zip -r ../x.zip .` from inside the folder makes them. */
  bytes: Uint8Array;
  /** sha256 of `bytes`, hex: what the scorecard and a scored sheet name the submission by. */
  sha256: string;
}

/** The key of a calibration set: each submission's expected decision, and the scores it is sure of. */
export interface CalibrationKey {
  kind: typeof CALIBRATION_KEY_KIND;
  schemaVersion: typeof CALIBRATION_KEY_SCHEMA_VERSION;
  packet: { id: string; version: string; digest: string };
  submissions: CalibrationKeyEntry[];
}

/** One submission of the key. */
export interface CalibrationKeyEntry {
  name: string;
  sha256: string;
  source: CalibrationSource;
  expected: {
    decision: 'hire' | 'no-hire';
    /** Why, in words: what the submission is and how its card decides. */
    reason: string;
    /** Only the rows the key is sure of: the automatic rows (the grader's score) and the rows a failure mode caps (at the cap). */
    scores: Record<string, number>;
  };
}

/** The order of the set: by a hash of the seed and each source, so one seed gives one order on every machine. */
export function calibrationOrder(sources: readonly CalibrationSource[], seed: string): CalibrationSource[] {
  const rank = (s: CalibrationSource) => createHash('sha256').update(`${seed}\0${s}`).digest('hex');
  return [...sources].sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
}

/** `cal-01`, `cal-02` ...: two digits at least, so the names sort as they are numbered. */
export function calibrationName(i: number, count: number): string {
  return `cal-${String(i + 1).padStart(Math.max(2, String(count).length), '0')}`;
}

async function readTree(packetDir: string, tree: string, files: readonly string[]): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for (const f of files) out.set(f, await readFile(path.join(packetDir, tree, f)));
  return out;
}

/**
 * The calibration submissions of a take-home: the candidate zip's files (README.md naming the
 * version and digest, PROMPT.md, RUBRIC.md, the starter) with the sample laid over them, and for
 * each failure mode the sample with its mutant over it (as the rehearsal lays them out). Zipped
 * deterministically, entries at the root. Diagnostics when the candidate zip cannot be built.
 */
export async function calibrationSubmissions(packet: CodePacket, packetDir: string, seed: string): Promise<{ submissions: CalibrationSubmission[]; diagnostics: Diagnostic[] }> {
  const built = await buildCandidateZip(packet, async (rel) => readFile(path.join(packetDir, rel)).catch(() => undefined));
  if (!built.zip) return { submissions: [], diagnostics: built.diagnostics };
  const base = new Map(built.zip.files.map((f) => [f.path, f.bytes] as const));
  const sample = await readTree(packetDir, 'sample', packet.trees.sample);
  const trees = new Map<CalibrationSource, Map<string, Uint8Array>>([['sample', new Map([...base, ...sample])]]);
  for (const mode of failureModes(packet)) {
    const name = mode.mutant.replace(/\/+$/, '').split('/')[1] ?? mode.id;
    const overlay = await readTree(packetDir, `mutants/${name}`, packet.trees.mutants[name] ?? []);
    trees.set(`mutant:${mode.id}`, new Map([...base, ...sample, ...overlay]));
  }
  const order = calibrationOrder([...trees.keys()], seed);
  const submissions: CalibrationSubmission[] = [];
  for (const [i, source] of order.entries()) {
    const bytes = await writeZip([...trees.get(source)!].map(([p, b]) => ({ path: p, bytes: b })));
    submissions.push({ name: calibrationName(i, order.length), source, bytes, sha256: createHash('sha256').update(bytes).digest('hex') });
  }
  return { submissions, diagnostics: [] };
}

/**
 * A submission's expected decision from its graded card, as the rehearsal's calibration decides it:
 * every row a machine cannot judge at its best allowed score (its maximum, or a failure mode's
 * cap), the automatic rows as graded, then the hire bar and the vetoes.
 */
export function expectedOf(packet: CodePacket, source: CalibrationSource, card: Scorecard): CalibrationKeyEntry['expected'] {
  const scores = Object.fromEntries(card.rows.map((r) => [r.id, r.score ?? Math.min(r.max, r.cap?.max ?? r.max)]));
  const d = decide(packet.rubric.data, scores);
  const sure = Object.fromEntries(card.rows.filter((r) => r.auto !== null || r.cap !== null).map((r) => [r.id, scores[r.id]!]));
  const what = source === 'sample' ? 'the sample solution' : `the mutant of failure mode "${source.slice('mutant:'.length)}"`;
  return { decision: d.decision, reason: `${what}, graded ${card.verdict}; every reviewer row at its best allowed score: ${d.reason}`, scores: sure };
}

/** What the rehearsal expects of a source: the sample is a hire, a mutant a no-hire. */
export const decisionFor = (source: CalibrationSource): 'hire' | 'no-hire' => (source === 'sample' ? 'hire' : 'no-hire');

/** The key from the set and its graded cards (matched by name). */
export function calibrationKey(packet: CodePacket, set: readonly CalibrationSubmission[], cards: ReadonlyMap<string, Scorecard>): CalibrationKey {
  return {
    kind: CALIBRATION_KEY_KIND,
    schemaVersion: CALIBRATION_KEY_SCHEMA_VERSION,
    packet: { id: packet.id, version: packet.prompt.data.version, digest: packet.digest },
    submissions: set.map((s) => ({ name: s.name, sha256: s.sha256, source: s.source, expected: expectedOf(packet, s.source, cards.get(s.name)!) })),
  };
}

/** The README at the top of the calibration folder: which folder goes to the reviewer, which stays with the hiring lead, and the next steps. */
export function calibrationReadme(key: CalibrationKey, grades: string): string {
  const { id, version, digest } = key.packet;
  return [
    `# Calibration set: ${id} ${version}`,
    '',
    `${key.submissions.length} anonymous submissions of packet \`${id}\` version \`${version}\` (digest \`${digest}\`): the sample solution and one mutant per failure mode, in an order that says nothing of which is which. Their expected decisions are in the key.`,
    '',
    '## What goes where',
    '',
    `- \`reviewer/\`: give this folder to the reviewer being calibrated. \`reviewer/submissions/\` holds the zips as a candidate sends them; \`reviewer/${grades}/\` holds their scorecards and \`summary.json\`.`,
    '- `lead/`: keep this folder yourself; never send it to a reviewer. `lead/calibration-key.json` is the key: each submission\'s origin and its expected decision.',
    '',
    '## Next steps',
    '',
    `1. The reviewer opens \`/packets/${id}/rubric/\` on the site (the rubric page), imports \`reviewer/${grades}/summary.json\` as a queue, scores every submission blind and exports each card.`,
    '2. Run `packet agreement <the exported sheets> --key lead/calibration-key.json`: it compares each reviewer with the key and names the rows and decisions that are off it.',
    '',
  ].join('\n');
}
