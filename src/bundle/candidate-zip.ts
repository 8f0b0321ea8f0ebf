import { createHash } from 'node:crypto';
import type { Root, RootContent } from 'mdast';
import { BundleErrors } from '../errors/bundle-catalog.ts';
import { diagnose } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { scanManyForSecrets } from '../lint/secrets.ts';
import type { CodePacket } from '../packets/packet.ts';
import { splitRubricBody } from '../packets/rubric-notes.ts';
import { generatedNameOf, readmeName, refusalOf, textOf } from '../check/file-policy.ts';

export { GENERATED_FILES, readmeName } from '../check/file-policy.ts';
import { code, codeBlock, heading, list, paragraph, renderBody, startsWithTitle, strong, toMarkdown } from './markdown.ts';
import { rubricCard } from './rubric-card.ts';
import { DONE_LABEL, handInTo, sheetFilePattern } from '../labs/hand-in.ts';
import { writeZip, type ZipInput } from './zip-writer.ts';

/** Reads a file of a packet by its path relative to the packet folder; undefined when it cannot be read. */
export type PacketFileReader = (relPath: string) => Promise<Uint8Array | undefined>;

/** A built zip. */
export interface BuiltZip {
  /** The file name, `<id>-<version>.zip`. */
  name: string;
  /** The folder every entry sits in, `<id>-<version>/`. */
  root: string;
  /** The entries, with paths relative to `root`. */
  files: ZipInput[];
  bytes: Uint8Array;
  /** sha256 of `bytes`, hex. */
  sha256: string;
}

/** The zip and folder name of a packet's version: `<id>-<version>`, and `<id>-<version>-<variant>` for one of its variants. */
export function zipBaseName(packet: Pick<CodePacket, 'id'> & { prompt: { data: { version: string } } }, variant?: string): string {
  return `${packet.id}-${packet.prompt.data.version}${variant ? `-${variant}` : ''}`;
}

/** PROMPT.md: the prompt body as plain Markdown, under the packet's title when the body has none. */
export function promptMarkdown(packet: CodePacket): string {
  const body = renderBody(packet.prompt.body, packet.prompt.file);
  if (!startsWithTitle(body)) body.children.unshift(heading(1, packet.prompt.data.title));
  return toMarkdown(body);
}

/** RUBRIC.md: the rubric card the candidate is scored on, then the rubric's public notes (never its reviewer-only sections). */
export function rubricMarkdown(packet: CodePacket): string {
  const notes = renderBody(splitRubricBody(packet.rubric).publicBody, packet.rubric.file, { shiftHeadings: 1 });
  const children: RootContent[] = [heading(1, `Rubric: ${packet.prompt.data.title}`), ...rubricCard(packet.rubric.data)];
  if (notes.children.length) children.push(heading(2, 'Notes on scoring'), ...notes.children);
  return toMarkdown({ type: 'root', children });
}

/** README.md: what this is, which version (and variant, for a variant's zip), how to run the tests, what to hand in. */
export function readmeMarkdown(packet: CodePacket, variant?: string): string {
  const p = packet.prompt.data;
  const children: RootContent[] = [
    heading(1, p.title),
    paragraph(p.summary),
    list([
      ['Packet: ', code(packet.id), ', version ', code(p.version)],
      ['Digest: ', code(packet.digest)],
      ...(variant ? [['Variant: ', code(variant)]] : []),
      [`Time box: ${p.minutes} minutes`],
    ]),
    paragraph('The digest names this exact version of the packet: quote it with your submission, and the reviewer scores you against the same rubric you read.'),
    heading(2, 'What is here'),
    list([
      [code('PROMPT.md'), ': the task, its hard limits and its stop rule.'],
      [code('RUBRIC.md'), ': the rubric you will be scored on, with the hire bar.'],
      ['Everything else: the starter code and its visible tests.'],
    ]),
    heading(2, 'Run the tests'),
    paragraph('From this folder:'),
    codeBlock(p.test, 'bash'),
    heading(2, 'Hand in'),
    ...handInSection(packet, variant),
  ];
  // A lab is graded from its answer sheet: what a take-home's folder may change, and what is put back, does not apply.
  if (p.kind !== 'lab') children.push(paragraph('Only these paths may change; a change anywhere else is noted against the submission: ', ...p.workspace.allow.flatMap((g, i) => (i ? [', ', code(g)] : [code(g)]))));
  if (p.protected.length && p.kind !== 'lab') {
    children.push(paragraph('Do not change these files. The originals are put back before grading, and a change is noted:'));
    children.push(list(p.protected.map((g) => [code(g)])));
  }
  if (p.receipts) children.push(...receiptsSection(p.receipts.dir, p.workspace.allow, p.budget));
  return toMarkdown({ type: 'root', children } satisfies Root);
}

/**
 * The zip README's "Hand in" section. A take-home sends back its whole folder; a lab is done and
 * handed in on its page, so its PACKET.md names the one file to send (the exported answer sheet)
 * and where it goes, and never asks for the folder.
 */
export function handInSection(packet: CodePacket, variant?: string): RootContent[] {
  const p = packet.prompt.data;
  const to = handInTo(p.handIn);
  const note = p.handIn?.note ? [paragraph(p.handIn.note)] : [];
  if (p.kind === 'lab') {
    const file = sheetFilePattern(packet.id, p.version);
    return [
      paragraph(
        'This folder is the codebase to read and run. The lab itself is on its page, ',
        code(`/labs/${packet.id}/`),
        ` on the site this zip came from: the assistant\'s suggestions, your choices, hand edits, reasons and plan. When you are done, press "${DONE_LABEL}" on that page: it checks every suggestion has a choice and every reason is written, and saves your answer sheet as `,
        code(file),
        '.',
      ),
      paragraph('Send that one file, and nothing else, to ', strong(to), `. The sheet names the version you worked on (${p.version}); the reviewer grades it with `, code('packet grade'), '. Do not send this folder back: your answers are in the sheet.'),
      ...note,
    ];
  }
  return [
    list(p.deliverables.map((d) => [code(d)])),
    paragraph(
      'Send back this whole folder, README.md included (it names the version you worked on): zipped from inside it (',
      code(`zip -r ../${zipBaseName(packet, variant)}-yourname.zip .`),
      ') or as a tar.gz (',
      code(`tar czf ../${zipBaseName(packet, variant)}-yourname.tar.gz .`),
      '). Plain files only: an archive with a symlink, a device or a path that climbs out with ".." is refused unread.',
    ),
    paragraph('Send it to ', strong(to), '.'),
    ...note,
  ];
}

/** The zip README's "Receipts" section: the files, their format and how the code digest is made. */
function receiptsSection(dir: string, allow: readonly string[], budget: { modelCalls: number; tokens: number }): RootContent[] {
  const at = (f: string) => (dir === '.' ? f : `${dir}/${f}`);
  const digest = [
    'import fnmatch, hashlib, pathlib',
    `allow = ${JSON.stringify(allow)}`,
    `skip = ${JSON.stringify([at('usage.jsonl'), at('ledger.json'), at('give_up.json')])}`,
    'h = hashlib.sha256()',
    'for f in sorted(p.as_posix() for p in pathlib.Path(".").rglob("*") if p.is_file()):',
    '    if f in skip or "__pycache__" in f or not any(fnmatch.fnmatchcase(f, g) for g in allow):',
    '        continue',
    '    data = pathlib.Path(f).read_bytes()',
    '    h.update(f"{f}\\0{len(data)}\\0".encode())',
    '    h.update(data)',
    'print(h.hexdigest())',
  ].join('\n');
  return [
    heading(2, 'Receipts'),
    paragraph(
      `Keep the receipts of your own coding-agent session in `,
      code(dir === '.' ? 'the folder root' : `${dir}/`),
      `, within ${budget.modelCalls} model calls and ${budget.tokens} tokens:`,
    ),
    list([
      [code(at('usage.jsonl')), ': one JSON line per model call, retries included, written as it happens: ', code('ts'), ', ', code('model'), ', ', code('prompt_tokens'), ', ', code('completion_tokens'), ' (null when the endpoint did not say), ', code('status'), ', ', code('error'), '.'],
      [code(at('ledger.json')), ': their sum, ', code('calls'), ', ', code('prompt_tokens'), ', ', code('completion_tokens'), ', ', code('tokens'), ' (null when any call\'s usage is unknown), and ', code('code_digest'), ', the digest of the code you hand in, made last.'],
      [code(at('give_up.json')), ': only when a cap stopped you, with ', code('reason'), ': ', code('model-calls'), ', ', code('tokens'), ', ', code('wall-clock'), ' or ', code('identical-errors'), '.'],
    ]),
    paragraph('The grader adds the lines up and compares them with the ledger, checks the caps, and recomputes ', code('code_digest'), ' from the files you send. From this folder:'),
    codeBlock(digest, 'python'),
  ];
}

/** A file bound for a zip, with the file a finding in it is reported at. */
export interface ScannedFile {
  bytes: Uint8Array;
  /** The source file, as shown in diagnostics. */
  file: string;
  /** True when `bytes` are the source file's own bytes, so a finding's line and column point into it. */
  verbatim: boolean;
}

/**
 * Scan the text files bound for a zip with the lint's secret scanner; one diagnostic per finding,
 * never the secret. The files are scanned as one text, blank lines between them, and each
 * finding is mapped back to its file and line: one secretlint pass per zip instead of one per
 * file (its per-call cost is most of the scan on small files).
 */
export async function scanZipFiles(files: readonly ScannedFile[], zipName: string): Promise<Diagnostic[]> {
  const texts: (ScannedFile & { text: string })[] = [];
  for (const f of files) {
    const text = textOf(f.bytes);
    if (text !== undefined) texts.push({ ...f, text });
  }
  return (await scanManyForSecrets(texts)).map(({ place, params, index }) => {
    const f = texts[index]!;
    // A finding in a generated file (PROMPT.md) has no line in its source file.
    const where = f.verbatim ? place : { file: f.file };
    return { ...diagnose(BundleErrors.ZipSecret, where, { ...params, zip: zipName }), sensitive: true };
  });
}

/** Read a packet's starter tree for a zip, refusing what may not ship. Returns the files (relative to starter/) or the refusals. */
export async function readStarter(packet: CodePacket, read: PacketFileReader): Promise<{ files: (ZipInput & ScannedFile)[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const files: (ZipInput & ScannedFile)[] = [];
  for (const e of packet.entries) {
    if (!e.path.startsWith('starter/')) continue;
    const rel = e.path.slice('starter/'.length);
    const file = `${packet.dir}/${e.path}`;
    const refusal = refusalOf(rel, e.kind, file);
    if (refusal) {
      diagnostics.push(refusal);
      continue;
    }
    const generated = generatedNameOf(rel, readmeName(packet));
    if (generated) {
      diagnostics.push(diagnose(BundleErrors.ZipNameTaken, { file }, { path: rel, generated }));
      continue;
    }
    const bytes = await read(e.path);
    if (!bytes) throw new Error(`cannot read ${file}`);
    files.push({ path: rel, bytes, file, verbatim: true });
  }
  return { files, diagnostics };
}

/**
 * Build the candidate zip `<id>-<version>.zip` (`<id>-<version>-<variant>.zip` of a rendered
 * variant, whose README names it): one folder of the same name holding PROMPT.md,
 * RUBRIC.md and README.md (rendered from the packet) and the starter tree. Refused files and
 * secrets found by the scan are returned as diagnostics, and then no zip is built.
 */
export async function buildCandidateZip(packet: CodePacket, read: PacketFileReader, variant?: string): Promise<{ zip?: BuiltZip; diagnostics: Diagnostic[] }> {
  const base = zipBaseName(packet, variant);
  const name = `${base}.zip`;
  const starter = await readStarter(packet, read);
  const enc = new TextEncoder();
  const generated = [
    { path: 'PROMPT.md', bytes: enc.encode(promptMarkdown(packet)), file: packet.prompt.file, verbatim: false },
    { path: 'RUBRIC.md', bytes: enc.encode(rubricMarkdown(packet)), file: packet.rubric.file, verbatim: false },
    { path: readmeName(packet), bytes: enc.encode(readmeMarkdown(packet, variant)), file: packet.prompt.file, verbatim: false },
  ];
  const all = [...generated, ...starter.files];
  const diagnostics = [...starter.diagnostics, ...(await scanZipFiles(all, name))];
  if (diagnostics.length) return { diagnostics };
  const files = all.map(({ path, bytes }) => ({ path, bytes }));
  const bytes = await writeZip(files.map((f) => ({ path: `${base}/${f.path}`, bytes: f.bytes })));
  return { zip: { name, root: `${base}/`, files, bytes, sha256: createHash('sha256').update(bytes).digest('hex') }, diagnostics };
}
