import type { Diagnostic, Place, Severity } from './diagnostic.ts';
import { entry, type CatalogEntry } from './entry.ts';
import { BundleErrors } from './bundle-catalog.ts';
import { CliErrors } from './cli-catalog.ts';
import { GradeErrors } from './grade-catalog.ts';
import { InternalErrors } from './internal-catalog.ts';
import { LintErrors } from './lint-catalog.ts';
import { JudgeFindings, RehearsalDefects, RehearsalRunErrors } from './judge-catalog.ts';
import { LabBundleErrors, LabDefects, LabErrors } from './lab-catalog.ts';
import { ModelErrors } from './model-catalog.ts';
import { VariantErrors } from './variants-catalog.ts';

export type { CatalogEntry } from './entry.ts';

/** The load and validation catalog (PK1xx). Never renumber or rename an entry; retire it instead. */
export const Errors = {
  PacketsDirMissing: entry<{ dir: string }>({
    code: 'PK101',
    name: 'PacketsDirMissing',
    title: 'Packets folder not found',
    severity: 'error',
    message: ({ dir }) => `The packets folder "${dir}" does not exist or is not a folder, so there is nothing to load.`,
    hint: () => 'Run from the project root, or pass the folder with --packets DIR.',
  }),
  PartMissing: entry<{ part: string }>({
    code: 'PK102',
    name: 'PartMissing',
    title: 'A part file is missing',
    severity: 'error',
    message: ({ part }) => `The packet has no ${part}.mdx. Every packet has four parts: prompt, rubric, sample and failures.`,
    hint: ({ part }) => `Create ${part}.mdx in the packet folder (\`npx packet new <id>\` scaffolds all four).`,
  }),
  FrontmatterMissing: entry({
    code: 'PK103',
    name: 'FrontmatterMissing',
    title: 'No frontmatter',
    severity: 'error',
    message: () => 'The file does not start with a YAML frontmatter block, so none of its fields can be read.',
    hint: () => 'Start the file with a line "---", the YAML fields, and a closing "---".',
  }),
  FrontmatterNotYaml: entry<{ fence: string }>({
    code: 'PK104',
    name: 'FrontmatterNotYaml',
    title: 'Frontmatter is not YAML',
    severity: 'error',
    message: ({ fence }) =>
      `The frontmatter opens with "${fence}". Only YAML frontmatter is read; other kinds are never evaluated, because a packet must not run code when it is loaded.`,
    hint: () => 'Open and close the frontmatter with a bare "---" line and write the fields as YAML.',
  }),
  YamlSyntax: entry<{ reason: string }>({
    code: 'PK105',
    name: 'YamlSyntax',
    title: 'YAML syntax error',
    severity: 'error',
    message: ({ reason }) => `The frontmatter is not valid YAML: ${reason}`,
    hint: () => 'Check indentation (spaces, not tabs), colons after keys, and quotes around values that contain ": " or start with a special character.',
  }),
  UnknownField: entry<{ field: string; at: string; suggestion?: string; known: string }>({
    code: 'PK106',
    name: 'UnknownField',
    title: 'Unknown field',
    severity: 'error',
    message: ({ field, at, suggestion }) =>
      `"${field}" is not a field of ${at}.${suggestion ? ` Did you mean "${suggestion}"?` : ''}`,
    hint: ({ suggestion, known }) => (suggestion ? `Rename it to "${suggestion}".` : `Known fields: ${known}.`),
  }),
  InvalidValue: entry<{ field: string; reason: string; part?: string }>({
    code: 'PK107',
    name: 'InvalidValue',
    title: 'Wrong type or value',
    severity: 'error',
    message: ({ field, reason }) => `"${field}" ${reason}.`,
    hint: ({ field, part }) => `Fix the value of "${field}"; \`npx packet explain ${part ? `${part}.` : ''}${field.replace(/\[\d+\]/g, '')}\` says what it holds, with an example.`,
  }),
  MissingField: entry<{ field: string; at: string; path?: string; part?: string }>({
    code: 'PK108',
    name: 'MissingField',
    title: 'Required field missing',
    severity: 'error',
    message: ({ field, at }) => `${at} has no "${field}", and it is required.`,
    hint: ({ field, path, part }) =>
      `Add "${field}:" with a value${path ? `; \`npx packet explain ${part ? `${part}.` : ''}${path.replace(/\[\d+\]/g, '')}\` says what it holds, with an example` : ''}.`,
  }),
  EmptyBody: entry<{ part: string }>({
    code: 'PK109',
    name: 'EmptyBody',
    title: 'Empty body',
    severity: 'error',
    message: ({ part }) =>
      `The body of ${part}.mdx is empty. The ${part === 'prompt' ? 'prompt body is what the candidate reads' : 'body carries the reviewer notes'}.`,
    hint: () => 'Write the text below the closing "---" of the frontmatter.',
  }),
  UnsafePath: entry<{ path: string; reason: string }>({
    code: 'PK110',
    name: 'UnsafePath',
    title: 'Unsafe path',
    severity: 'error',
    message: ({ path, reason }) => `The path "${path}" ${reason}. Packet paths must stay inside the packet folder.`,
    hint: () => 'Use a relative path with forward slashes and no ".." segment.',
  }),
  SymlinkInTree: entry<{ path: string }>({
    code: 'PK111',
    name: 'SymlinkInTree',
    title: 'Symlink in a tree',
    severity: 'error',
    message: ({ path }) => `"${path}" is a symbolic link. Links can point outside the packet and are never followed or shipped.`,
    hint: () => 'Replace the link with a copy of the file it points to.',
  }),
  DuplicateId: entry<{ id: string; other: string }>({
    code: 'PK112',
    name: 'DuplicateId',
    title: 'Duplicate packet id',
    severity: 'error',
    message: ({ id, other }) => `Two packet folders give the id "${id}" (the other is "${other}"). Ids name zips and pages, so they must be unique.`,
    hint: () => 'Rename one of the folders.',
  }),
  LargeTreeFile: entry<{ path: string; size: number }>({
    code: 'PK113',
    name: 'LargeTreeFile',
    title: 'Large file in a tree',
    severity: 'warning',
    message: ({ path, size }) =>
      `"${path}" is ${(size / 1024 / 1024).toFixed(1)} MB. Files over 1 MB bloat the candidate zip and slow every rehearsal.`,
    hint: () => 'Generate the data in a test fixture, or shrink it.',
  }),
  UnknownPacket: entry<{ id: string; known: string }>({
    code: 'PK114',
    name: 'UnknownPacket',
    title: 'No such packet',
    severity: 'error',
    message: ({ id, known }) => `There is no packet "${id}". Known packets: ${known}.`,
    hint: () => 'Check the spelling; a packet in another folder than packets/ needs --packets DIR (e.g. `--packets my-packets`). Without ids, every packet of the folder is used.',
  }),
  PacketIdNotCanonical: entry<{ folder: string; id: string }>({
    code: 'PK115',
    name: 'PacketIdNotCanonical',
    title: 'Folder name is not an id',
    severity: 'warning',
    message: ({ folder, id }) => `The folder "${folder}" is read as the packet id "${id}".`,
    hint: ({ id }) => `Rename the folder to "${id}".`,
  }),
  TreeMissing: entry<{ tree: string }>({
    code: 'PK116',
    name: 'TreeMissing',
    title: 'A code tree is missing',
    severity: 'error',
    message: ({ tree }) => `The packet has no ${tree}/ folder with files in it.`,
    hint: ({ tree }) =>
      tree === 'starter'
        ? 'Put the deliberately broken code and its visible tests in starter/.'
        : `Create ${tree}/ with the files it overlays.`,
  }),
  YamlTooManyAliases: entry<{ max: number }>({
    code: 'PK118',
    name: 'YamlTooManyAliases',
    title: 'YAML aliases expand too far',
    severity: 'error',
    message: ({ max }) =>
      `The frontmatter's aliases (*name) expand past the limit of ${max} alias uses, counting the aliases inside what each one repeats. Aliases that repeat aliases grow exponentially (a "billion laughs"), so the file is not read any further.`,
    hint: () => 'Write the values out instead of using anchors (&name) and aliases (*name); a packet\'s frontmatter never needs them.',
  }),
  YamlTooDeep: entry<{ max: number }>({
    code: 'PK119',
    name: 'YamlTooDeep',
    title: 'YAML nested too deeply',
    severity: 'error',
    message: ({ max }) =>
      `The frontmatter nests more than ${max} levels of lists and maps here. No packet field goes deeper than five, and deeper input is how a parser is made to run out of stack, so the file is not read any further.`,
    hint: () => 'Check the indentation and the brackets from here on: a field nested this deep is almost always a bracket or an indent too many.',
  }),
  UnreadableFile: entry<{ reason: string }>({
    code: 'PK117',
    name: 'UnreadableFile',
    title: 'File cannot be read',
    severity: 'error',
    message: ({ reason }) => `The file could not be read: ${reason}.`,
    hint: () => 'Check that it is a UTF-8 text file and readable.',
  }),
  VetoUnknownRow: entry<{ row: string; rows: string }>({
    code: 'PK120',
    name: 'VetoUnknownRow',
    title: 'Veto names no rubric row',
    severity: 'error',
    message: ({ row, rows }) => `The veto names the row "${row}", which the rubric does not have (rows: ${rows}).`,
    hint: () => 'Use the id of an existing row.',
  }),
  HireBarOutOfReach: entry<{ hireBar: number; total: number }>({
    code: 'PK121',
    name: 'HireBarOutOfReach',
    title: 'Hire bar above the total',
    severity: 'error',
    message: ({ hireBar, total }) => `The hire bar is ${hireBar} but the rows add up to ${total}, so nobody can be hired.`,
    hint: ({ total }) => `Lower hireBar to at most ${total}, or add points to the rows.`,
  }),
  MutantMissing: entry<{ mode: string; path: string }>({
    code: 'PK122',
    name: 'MutantMissing',
    title: 'Mutant overlay missing',
    severity: 'error',
    message: ({ mode, path }) =>
      `The failure mode "${mode}" points at the mutant "${path}", which is not a folder with files. Without it the rehearsal cannot prove the tests catch this failure.`,
    hint: ({ path }) => `Create ${path}/ with the changed files that reproduce the failure on top of the sample.`,
  }),
  ReplyMissing: entry<{ mode: string; path: string }>({
    code: 'PK123',
    name: 'ReplyMissing',
    title: 'Scripted reply missing',
    severity: 'error',
    message: ({ mode, path }) => `The failure mode "${mode}" names the reply "${path}", which does not exist.`,
    hint: ({ path }) => `Create ${path}, or remove the "reply" field.`,
  }),
  ProtectedNoMatch: entry<{ glob: string }>({
    code: 'PK124',
    name: 'ProtectedNoMatch',
    title: 'Protected glob matches nothing',
    severity: 'error',
    message: ({ glob }) => `The protected glob "${glob}" matches no file in starter/, so it protects nothing.`,
    hint: () => 'Fix the glob (relative to starter/, e.g. "tests/**"), or remove it.',
  }),
  TestCommandMissing: entry({
    code: 'PK125',
    name: 'TestCommandMissing',
    title: 'No test command',
    severity: 'error',
    message: () => 'The prompt sets no test command, so neither the candidate nor the rehearsal can run the tests.',
    hint: () => 'Set "test:" to the command run from the workspace root, e.g. "python3 -m unittest discover -s tests -t . -q".',
  }),
  DuplicateEntryId: entry<{ kind: string; id: string }>({
    code: 'PK126',
    name: 'DuplicateEntryId',
    title: 'Duplicate row or mode id',
    severity: 'error',
    message: ({ kind, id }) => `Two ${kind}s share the id "${id}"; vetoes, caps and reports name them by id.`,
    hint: () => 'Give each one its own id.',
  }),
  CapUnknownRow: entry<{ mode: string; row: string; rows: string }>({
    code: 'PK127',
    name: 'CapUnknownRow',
    title: 'Failure caps no rubric row',
    severity: 'error',
    message: ({ mode, row, rows }) => `The failure mode "${mode}" caps the row "${row}", which the rubric does not have (rows: ${rows}).`,
    hint: () => 'Use the id of an existing rubric row in caps.row.',
  }),
  ContextFileMissing: entry<{ path: string }>({
    code: 'PK128',
    name: 'ContextFileMissing',
    title: 'Context file not in the starter',
    severity: 'error',
    message: ({ path }) => `"${path}" is listed as model context but is not a file in starter/.`,
    hint: () => 'List paths relative to starter/, or remove the entry.',
  }),
  CapAboveRowMax: entry<{ mode: string; row: string; cap: number; max: number }>({
    code: 'PK129',
    name: 'CapAboveRowMax',
    title: 'Cap above the row maximum',
    severity: 'error',
    message: ({ mode, row, cap, max }) =>
      `The failure mode "${mode}" caps "${row}" at ${cap}, but that row only goes to ${max}, so the cap never bites.`,
    hint: ({ max }) => `Set caps.max below ${max}.`,
  }),
  ForbidPatternInvalid: entry<{ pattern: string; reason: string }>({
    code: 'PK190',
    name: 'ForbidPatternInvalid',
    title: 'A forbidden pattern is not a regular expression',
    severity: 'error',
    message: ({ pattern, reason }) =>
      `workspace.forbid pattern /${pattern}/ does not compile (${reason}). The judge would report it on every run and never pass a submission of this packet.`,
    hint: () => 'Fix the pattern (JavaScript regular expression syntax; in YAML double quotes, write a backslash as \\\\).',
  }),
  AllowGlobInvalid: entry<{ glob: string; reason: string }>({
    code: 'PK191',
    name: 'AllowGlobInvalid',
    title: 'An allowed-files glob is not usable',
    severity: 'error',
    message: ({ glob, reason }) => `workspace.allow glob "${glob}" ${reason}.`,
    hint: () => 'Write a glob relative to the workspace root, such as "src/**" or "NOTES.md".',
  }),
  DeliverableOutsideAllow: entry<{ deliverable: string }>({
    code: 'PK192',
    name: 'DeliverableOutsideAllow',
    title: 'A deliverable the contract forbids',
    severity: 'error',
    message: ({ deliverable }) =>
      `The deliverable ${deliverable} is not in the starter and no workspace.allow glob covers it, so handing it in breaks the workspace contract and no submission can pass.`,
    hint: ({ deliverable }) => `Add "${deliverable}" (or a glob that covers it) to workspace.allow.`,
  }),
  PacketFolderUnwritable: entry<{ folder: string; reason: string; fix: string }>({
    code: 'PK193',
    name: 'PacketFolderUnwritable',
    title: 'The new packet\'s folder cannot be written',
    severity: 'error',
    message: ({ folder, reason }) => `The new packet's folder ${folder} cannot be written: ${reason}. Nothing of it is left; packet new exits 2.`,
    hint: ({ fix }) => `${fix[0]!.toUpperCase()}${fix.slice(1)} (--packets DIR chooses the packets folder), then run it again.`,
  }),
  UnusedReply: entry<{ path: string; named: string }>({
    code: 'PK130',
    name: 'UnusedReply',
    title: 'Scripted reply that nothing uses',
    severity: 'warning',
    message: ({ path, named }) =>
      `"${path}" is in replies/, but no failure mode names it in "reply" (replies named: ${named}), and only replies/sample.md is used without one. The rehearsal never runs it, so what it was meant to prove goes unproven.`,
    hint: ({ path }) => `Add "reply: ${path}" to the failure mode it commits, rename it to match the mode's reply, or delete it.`,
  }),
  PacketCheckCrashed: entry<{ step: string; reason: string }>({
    code: 'PK131',
    name: 'PacketCheckCrashed',
    title: 'Checking a packet failed inside the kit',
    severity: 'error',
    message: ({ step, reason }) =>
      `${step} this packet failed inside packet-kit (${reason}). That is a bug in the kit, not a problem named in the packet; the other packets were checked as usual.`,
    hint: () => 'Run `npx packet check` on this packet alone to see it again, and report it with the packet attached.',
  }),
  ControlCharacterInText: entry<{ part: string; code: string; count: number }>({
    code: 'PK160',
    name: 'ControlCharacterInText',
    title: 'A control character in a part',
    severity: 'error',
    message: ({ part, code, count }) =>
      `${part} holds the control character ${code} here${count > 1 ? ` (and ${count - 1} more on this line)` : ''}. It is invisible in an editor, but it would reach the site's pages, PROMPT.md, README.md and RUBRIC.md as it is, where a terminal or a browser acts on it or shows garbage.`,
    hint: () => 'Delete it; only tab, newline and carriage return may appear in a part. Write a visible character or an HTML entity if you meant one.',
  }),
  UnsafeFileName: entry<{ path: string; reason: string }>({
    code: 'PK161',
    name: 'UnsafeFileName',
    title: 'A file name that reads as another name',
    severity: 'error',
    message: ({ path, reason }) =>
      `The file "${path}" (shown escaped) has a name that ${reason}. An editor, a terminal or GitHub shows such a name as something else (a bidi control reorders it, the Trojan Source trick; a zero-width character hides in it; a control character breaks the line), and it would ship in the packet's zips as it is.`,
    hint: () => 'Rename the file (or its folder) with visible characters only.',
  }),
  FileNameNotUtf8: entry<{ path: string }>({
    code: 'PK140',
    name: 'FileNameNotUtf8',
    title: 'A file name is not UTF-8',
    severity: 'error',
    message: ({ path }) =>
      `The name "${path}" is not valid UTF-8 (each byte that is not is shown as \\xNN). A name that cannot be decoded cannot be shown, zipped or named exactly, so it is not read; the rest of the packet is checked as usual.`,
    hint: () => 'Rename it to a UTF-8 name (in a shell: `mv` with a glob, e.g. `mv starter/data?.csv starter/data.csv`), or delete it.',
  }),
  TreeTooDeep: entry<{ path: string; reason: string }>({
    code: 'PK141',
    name: 'TreeTooDeep',
    title: 'Folders nested too deeply',
    severity: 'error',
    message: ({ path, reason }) =>
      `"${path}" ${reason}, so nothing below it is read. No packet needs such a tree, and paths that long break zip tools and the disks candidates unzip onto.`,
    hint: () => 'Flatten the tree: a packet\'s paths may be at most 32 folders deep and 1,024 bytes long.',
  }),
  FileTooLarge: entry<{ path: string; size: string; limit: string; override: boolean }>({
    code: 'PK142',
    name: 'FileTooLarge',
    title: 'File above the size limit',
    severity: 'error',
    message: ({ path, size, limit, override }) =>
      `"${path}" is ${size}, over the limit of ${limit} for a file of ${override ? 'this packet (its `limits.fileMb`)' : 'a packet'}. Every file is hashed, zipped and copied into every rehearsal; a file this large ${override ? 'is over what the packet said it needs' : 'is almost always data that belongs in a generator'}.`,
    hint: ({ override }) =>
      override
        ? 'Shrink the file, or raise `limits.fileMb` in prompt.mdx (at most 256) and say why in `limits.reason`.'
        : 'Generate the data in the tests (a fixture built at run time), or shrink it; a packet that truly needs a large file raises the limit in prompt.mdx with `limits: { fileMb: N, reason: "..." }`.',
  }),
  FileTooLargeToRead: entry<{ path: string; size: string; max: string }>({
    code: 'PK143',
    name: 'FileTooLargeToRead',
    title: 'File too large to read',
    severity: 'error',
    message: ({ path, size, max }) =>
      `"${path}" is ${size}, over the ${max} the kit reads of a file of this sort, so it is not read at all (no packet can raise this limit).`,
    hint: () => 'Shrink it: a part file is text a person reads, and a tree file that large belongs in a generator run by the tests.',
  }),
  SandboxUnavailable: entry<{ reason: string }>({
    code: 'PK401',
    name: 'SandboxUnavailable',
    title: 'No sandbox for untrusted code',
    severity: 'error',
    message: ({ reason }) => reason,
    hint: () =>
      'Install bubblewrap 0.7 or later, gcc and libseccomp-dev (Debian/Ubuntu: apt-get install bubblewrap gcc libseccomp-dev) and allow unprivileged user namespaces (the sandbox drops to an unprivileged uid even when the kit runs as root); or, for packets you wrote yourself, pass --unconfined.',
  }),
  SandboxCapHit: entry<{ detail: string; fix: string }>({
    code: 'PK402',
    name: 'SandboxCapHit',
    title: 'A test run hit a sandbox cap',
    severity: 'error',
    message: ({ detail }) =>
      `A test run hit a cap of the sandbox: ${detail}. The run failed or was stopped there, so nothing after that point was tested.`,
    hint: ({ fix }) => fix,
  }),
  ScratchUnwritable: entry<{ folder: string; reason: string; fix: string }>({
    code: 'PK403',
    name: 'ScratchUnwritable',
    title: 'The scratch folder cannot be written',
    severity: 'error',
    message: ({ folder, reason }) =>
      `The scratch folder ${folder} cannot be written: ${reason}. Every run works in a scratch root made there, so none can start; the command exits 2.`,
    hint: ({ fix }) => `${fix[0]!.toUpperCase()}${fix.slice(1)} (TMPDIR chooses the folder), then run it again.`,
  }),
} as const;

/** Any catalog entry. */
export type AnyEntry = (typeof Errors)[keyof typeof Errors];

type ParamsOf<E> = E extends CatalogEntry<infer P> ? P : never;

/** Build a diagnostic from a catalog entry, its parameters and its place. */
export function diagnose<E extends CatalogEntry<any>>(
  e: E,
  place: Place,
  params: ParamsOf<E>,
  severity: Severity = e.severity,
): Diagnostic {
  const d: Diagnostic = {
    code: e.code,
    name: e.name,
    severity,
    message: e.message(params),
    hint: e.hint(params),
    file: place.file,
  };
  if (place.line !== undefined) d.line = place.line;
  if (place.column !== undefined) d.column = place.column;
  return d;
}

/** Every catalog entry, sorted by code: the source of the error reference. */
export function catalogEntries(): CatalogEntry<any>[] {
  const all = [Errors, LintErrors, BundleErrors, JudgeFindings, RehearsalDefects, RehearsalRunErrors, GradeErrors, ModelErrors, LabErrors, LabBundleErrors, LabDefects, VariantErrors, CliErrors, InternalErrors].flatMap((area) => Object.values(area)) as CatalogEntry<any>[];
  return all.sort((a, b) => a.code.localeCompare(b.code));
}
