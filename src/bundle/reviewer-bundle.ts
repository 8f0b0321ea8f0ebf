import { createHash } from 'node:crypto';
import type { RootContent } from 'mdast';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { describeCounts, describeScore, type MutationReport } from '../mutate/report.ts';
import type { LabTable } from '../labs/table.ts';
import { failureModes, labModelOf, type CodePacket, type Drill } from '../packets/packet.ts';
import type { PacketReport, RehearsalReport } from '../rehearse/report.ts';
import { scanZipFiles, zipBaseName, type BuiltZip, type PacketFileReader, type ScannedFile } from './candidate-zip.ts';
import { refusalOf } from '../check/file-policy.ts';
import { DRILL_KEY_FILE, drillKeyMarkdown, drillReviewerKey, LAB_KEY_FILE, labKeySections, labReviewerKey } from './lab-key.ts';
import { code, heading, list, paragraph, renderBody, toMarkdown } from './markdown.ts';
import { reviewerNotesSection, rubricCard } from './rubric-card.ts';
import { scoringPagePath, scoringPageUse } from './scoring-page.ts';
import { writeZip, type ZipInput } from './zip-writer.ts';
import { valuesText } from '../packets/variants-check.ts';
import { VARIANTS_KEY_FILE, variantsKeyJson, type VariantsKey } from '../packets/variants-key.ts';

/**
 * The reviewer bundle `<id>-<version>.zip` (never deployed): every file of the packet, secret
 * trees included, a KEY.md to grade with, the packet's latest rehearsal result, and its latest
 * mutation run (the score in KEY.md, the reports as MUTATION.json and MUTATION.html).
 */

/** A packet's latest rehearsal, as the bundle carries it. */
export interface RehearsalEvidence {
  /** The packet's result. */
  packet: PacketReport;
  /** When the rehearsal ran and how untrusted code ran. */
  date: string;
  sandbox: RehearsalReport['sandbox'];
  /** True when the result belongs to another digest: an older version of the packet. */
  stale: boolean;
}

/** The packet's entry of a rehearsal report, if the report has one. */
export function rehearsalEvidence(report: RehearsalReport | undefined, packet: Pick<CodePacket, 'id' | 'digest'>): RehearsalEvidence | undefined {
  const entry = report?.packets.find((p) => p.id === packet.id);
  if (!report || !entry) return undefined;
  return { packet: entry, date: report.date, sandbox: report.sandbox, stale: entry.digest !== packet.digest };
}

/** A packet's latest mutation run (`packet mutate`), as the bundle carries it. */
export interface MutationEvidence {
  /** The run's own report (report.json). */
  report: MutationReport;
  /** The standard mutation-testing report (mutation-report.json), as written. */
  schemaJson?: string;
  /** The page (mutation-report.html), as written. */
  html?: string;
  /** True when the run belongs to another digest: an older version of the packet. */
  stale: boolean;
}

/** The mutation run of a packet, if its report is about this packet; stale when about another digest. */
export function mutationEvidence(run: { report: MutationReport; schemaJson?: string; html?: string } | undefined, packet: Pick<CodePacket, 'id' | 'digest'>): MutationEvidence | undefined {
  if (!run || run.report.packet !== packet.id) return undefined;
  return { ...run, stale: run.report.digest !== packet.digest };
}

/** What the key says about the candidate zip it goes with. */
export interface CandidateZipRef {
  name: string;
  sha256: string;
  size: number;
}

/** KEY.md: the failure catalog (signal, mutant, reply, cap), the rubric with hire bar and vetoes and its reviewer notes, the sample's label and the rehearsal. */
export function keyMarkdown(packet: CodePacket, options: { candidate?: CandidateZipRef; rehearsal?: RehearsalEvidence; mutation?: MutationEvidence; labTable?: LabTable; variants?: VariantsKey }): string {
  const p = packet.prompt.data;
  const children: RootContent[] = [
    heading(1, `Reviewer key: ${p.title}`),
    paragraph('Reviewer material: never give this file, or anything else in this bundle, to a candidate.'),
    list([
      ['Packet: ', code(packet.id), ', version ', code(p.version)],
      ['Digest: ', code(packet.digest)],
      ...(options.candidate
        ? [['Candidate zip: ', code(options.candidate.name), `, ${options.candidate.size} bytes, sha256 `, code(options.candidate.sha256)]]
        : []),
      ['Test command: ', code(p.test)],
      ['Scoring page on the packet site: ', code(scoringPagePath(packet.kind, packet.id)), ` (${scoringPageUse(packet.kind)})`],
    ]),
  ];
  if (options.variants) children.push(...variantsSection(options.variants));
  const modes = failureModes(packet);
  if (modes.length) children.push(heading(2, 'Failure modes'));
  modes.forEach((m, i) => {
    const s = m.signal;
    children.push(heading(3, `${i + 1}. `, code(m.id), `: ${m.title}`));
    children.push(
      list([
        ['Signal: ', code(`/${s.pattern}/${s.flags}`), ` in ${s.in}`, ...(s.files?.length ? [', files ', code(s.files.join(', '))] : [])],
        ['Mutant: ', code(m.mutant)],
        ...(m.reply ? [['Scripted reply: ', code(m.reply)]] : []),
        ['Caps: ', code(m.caps.row), ` at ${m.caps.max}`],
      ]),
    );
  });
  if (packet.kind === 'takehome') {
    const narrative = renderBody(packet.failures.body, packet.failures.file, { shiftHeadings: 2 });
    if (narrative.children.length) children.push(heading(3, 'How each one dies'), ...narrative.children);
  } else {
    if (packet.lab) children.push(...labKeySections(packet.lab, options.labTable));
    const notes = renderBody(packet.assistant.body, packet.assistant.file, { shiftHeadings: 2 });
    if (notes.children.length) children.push(heading(3, 'Notes on the assistant'), ...notes.children);
  }
  children.push(heading(2, 'Rubric'), ...rubricCard(packet.rubric.data, 3), ...reviewerNotesSection(packet.rubric));
  if (packet.kind === 'takehome') children.push(heading(2, 'Sample solution'), paragraph(packet.sample.data.label), paragraph('The sample overlay is under ', code('sample/'), '; the held-out tests under ', code('hidden/'), '.'));
  children.push(heading(2, 'Rehearsal'));
  const r = options.rehearsal;
  if (!r) {
    children.push(paragraph('Not rehearsed: no rehearsal report was found for this packet. Run ', code('npx packet rehearse'), ' before grading with this key.'));
  } else {
    const verdict = r.packet.status === 'fails-closed' ? 'fails closed' : r.packet.status;
    const stale = r.stale ? `STALE: this result is for digest ${r.packet.digest.slice(0, 12)}, another version of the packet. ` : '';
    children.push(
      paragraph(
        `${stale}Verdict: ${verdict}, ${r.packet.checks.length} checks, rehearsed ${r.date} (sandbox: ${r.sandbox.kind}). The full result is in `,
        code('REHEARSAL.json'),
        '.',
      ),
    );
    if (r.packet.defects.length) children.push(list(r.packet.defects.map((d) => [d])));
  }
  children.push(heading(2, 'Mutation testing'));
  const mu = options.mutation;
  if (!mu) {
    children.push(paragraph('No mutation run: ', code(`npx packet mutate ${packet.id}`), ' lets a model propose mutants of the sample and shows which ones the tests miss.'));
  } else {
    const m = mu.report;
    const stale = mu.stale ? `STALE: this run is for digest ${m.digest.slice(0, 12)}, another version of the packet. ` : '';
    const verdict = m.verdict === 'INCONCLUSIVE' ? ` The run was INCONCLUSIVE: ${m.inconclusive?.reason ?? 'see its report'}.` : '';
    const files = [mu.schemaJson ? 'MUTATION.json' : null, mu.html ? 'MUTATION.html' : null].filter((f) => f !== null);
    children.push(
      paragraph(
        `${stale}${describeScore(m.summary).replace(/^./, (c) => c.toUpperCase())}: ${describeCounts(m.summary)}. Model `,
        code(m.model),
        `, ${m.date.slice(0, 10)}.${verdict}`,
        ...(files.length ? [' Every mutant, its status and its diff: ', ...files.flatMap((f, i) => [...(i ? [' and '] : []), code(f)]), '.'] : []),
      ),
    );
    const survivors = m.mutants.filter((x) => x.status === 'survived');
    if (survivors.length) {
      children.push(paragraph('Survivors (behaviour no test checks):'));
      children.push(list(survivors.map((x) => [`Mutant ${x.id}, `, code(x.path), `: ${x.fault}`])));
    }
  }
  return toMarkdown({ type: 'root', children });
}

/** KEY.md's "Variants" section: each variant's id, digest, zip and values (VARIANTS.json holds the same). */
function variantsSection(key: VariantsKey): RootContent[] {
  return [
    heading(2, 'Variants'),
    paragraph(`${key.variants.length} variant${key.variants.length === 1 ? '' : 's'}, drawn from the seed `, code(key.seed), '. Send each candidate one zip, and note which: the zip\'s README names its variant and digest. ', code(VARIANTS_KEY_FILE), ' holds the same, for tools.'),
    list(
      key.variants.map((v) => [
        code(v.id),
        ': ',
        code(v.zip.name),
        ', digest ',
        code(v.digest),
        ', ',
        code(valuesText(v.values) || '(no parameters)'),
        ...(v.lab ? ['; its lab page ', code(v.lab.page), ...(v.lab.key ? [', its key ', code(`variants/${key.packet}-${key.version}/${v.lab.key}`)] : [])] : []),
      ]),
    ),
    ...(key.variants.some((v) => v.lab)
      ? [
          paragraph(
            'A lab with variants: send each candidate the address of their variant\'s lab page (the site\'s own address before it). Their answer sheet carries the variant\'s digest; score it on the lab\'s scoring page with that variant\'s ',
            code('LAB-KEY.json'),
            ' (in the reviewer folder, beside the variant\'s zip; the one in this bundle is v1\'s).',
          ),
        ]
      : []),
  ];
}

/** REHEARSAL.json: the packet's result with the run's date and sandbox, sorted keys where it matters, LF at the end. */
export function rehearsalJson(r: RehearsalEvidence): string {
  return JSON.stringify({ schemaVersion: 1, date: r.date, sandbox: r.sandbox, stale: r.stale, result: r.packet }, null, 2) + '\n';
}

/**
 * Build a packet's reviewer bundle: one folder `<id>-<version>/` with every file of the packet at
 * its own path, KEY.md and, when a rehearsal result exists, REHEARSAL.json. The same refusals and
 * secret scan as the candidate zip apply: links, `.git`, `.env*` and key files never belong in a
 * packet, and the scan is the one pass over the secret trees (sample, hidden, mutants, replies).
 */
export async function buildReviewerBundle(
  packet: CodePacket,
  read: PacketFileReader,
  options: { candidate?: CandidateZipRef; rehearsal?: RehearsalEvidence; mutation?: MutationEvidence; labTable?: LabTable; variants?: VariantsKey } = {},
): Promise<{ zip?: BuiltZip; diagnostics: Diagnostic[] }> {
  const base = zipBaseName(packet);
  const name = `${base}.zip`;
  const diagnostics: Diagnostic[] = [];
  const files: (ZipInput & ScannedFile)[] = [];
  for (const e of packet.entries) {
    const file = `${packet.dir}/${e.path}`;
    const refusal = refusalOf(e.path, e.kind, file);
    if (refusal) {
      diagnostics.push(refusal);
      continue;
    }
    const bytes = await read(e.path);
    if (!bytes) throw new Error(`cannot read ${file}`);
    files.push({ path: e.path, bytes, file, verbatim: true });
  }
  const enc = new TextEncoder();
  files.push({ path: 'KEY.md', bytes: enc.encode(keyMarkdown(packet, options)), file: (packet.kind === 'takehome' ? packet.failures : packet.assistant).file, verbatim: false });
  const lab = labModelOf(packet);
  if (lab && options.labTable) {
    files.push({ path: LAB_KEY_FILE, bytes: enc.encode(`${JSON.stringify(labReviewerKey(lab, options.labTable), null, 2)}\n`), file: `${packet.dir} (lab key)`, verbatim: false });
  }
  if (options.variants) files.push({ path: VARIANTS_KEY_FILE, bytes: enc.encode(variantsKeyJson(options.variants)), file: `${packet.dir} (variants key)`, verbatim: false });
  if (options.rehearsal) files.push({ path: 'REHEARSAL.json', bytes: enc.encode(rehearsalJson(options.rehearsal)), file: `${packet.dir} (rehearsal report)`, verbatim: false });
  if (options.mutation?.schemaJson) files.push({ path: 'MUTATION.json', bytes: enc.encode(options.mutation.schemaJson), file: `${packet.dir} (mutation report)`, verbatim: false });
  if (options.mutation?.html) files.push({ path: 'MUTATION.html', bytes: enc.encode(options.mutation.html), file: `${packet.dir} (mutation report page)`, verbatim: false });
  diagnostics.push(...(await scanZipFiles(files, `the reviewer bundle ${name}`)));
  if (diagnostics.length) return { diagnostics };
  const entries = files.map(({ path, bytes }) => ({ path, bytes }));
  const bytes = await writeZip(entries.map((f) => ({ path: `${base}/${f.path}`, bytes: f.bytes })));
  return { zip: { name, root: `${base}/`, files: entries, bytes, sha256: createHash('sha256').update(bytes).digest('hex') }, diagnostics };
}

/**
 * A drill's reviewer bundle `<id>-<version>.zip`: every file of the drill, KEY.md (each diff with
 * its verdict and the consequence a good reason names) and DRILL-KEY.json, which the drill's
 * scoring page imports. The same refusals and secret scan as every bundle.
 */
export async function buildDrillReviewerBundle(drill: Drill, read: PacketFileReader): Promise<{ zip?: BuiltZip; diagnostics: Diagnostic[] }> {
  const base = zipBaseName(drill);
  const diagnostics: Diagnostic[] = [];
  const files: (ZipInput & ScannedFile)[] = [];
  for (const e of drill.entries) {
    const file = `${drill.dir}/${e.path}`;
    const refusal = refusalOf(e.path, e.kind, file);
    if (refusal) {
      diagnostics.push(refusal);
      continue;
    }
    const bytes = await read(e.path);
    if (!bytes) throw new Error(`cannot read ${file}`);
    files.push({ path: e.path, bytes, file, verbatim: true });
  }
  const enc = new TextEncoder();
  files.push({ path: 'KEY.md', bytes: enc.encode(drillKeyMarkdown(drill)), file: drill.assistant.file, verbatim: false });
  files.push({ path: DRILL_KEY_FILE, bytes: enc.encode(`${JSON.stringify(drillReviewerKey(drill), null, 2)}\n`), file: `${drill.dir} (drill key)`, verbatim: false });
  diagnostics.push(...(await scanZipFiles(files, `the reviewer bundle ${base}.zip`)));
  if (diagnostics.length) return { diagnostics };
  const entries = files.map(({ path, bytes }) => ({ path, bytes }));
  const bytes = await writeZip(entries.map((f) => ({ path: `${base}/${f.path}`, bytes: f.bytes })));
  return { zip: { name: `${base}.zip`, root: `${base}/`, files: entries, bytes, sha256: createHash('sha256').update(bytes).digest('hex') }, diagnostics };
}
