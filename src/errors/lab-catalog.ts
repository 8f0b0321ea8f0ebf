import { entry } from './entry.ts';

/**
 * The catalog of labs and drills, by area: validation (PK170-PK189), the build's test table
 * (PK350-PK369) and the rehearsal's fails-closed rules (PK470-PK489); their lint rules' entries
 * (PK250-PK269) sit with the other rules' in lint-catalog.ts. Never renumber or rename an entry.
 */

/** Validation of a lab's or a drill's parts (PK170-PK189). */
export const LabErrors = {
  LabFileMissing: entry<{ suggestion: string; file: string }>({
    code: 'PK170',
    name: 'LabFileMissing',
    title: 'A suggestion changes a file the starter does not have',
    severity: 'error',
    message: ({ suggestion, file }) => `The suggestion "${suggestion}" changes starter/${file}, which is not a text file of the starter.`,
    hint: () => 'Give the path relative to starter/, of a file that is there.',
  }),
  LabRegionUnspecified: entry<{ suggestion: string; problem: string }>({
    code: 'PK171',
    name: 'LabRegionUnspecified',
    title: 'A suggestion names no single region',
    severity: 'error',
    message: ({ suggestion, problem }) => `The suggestion "${suggestion}" ${problem}; a suggestion replaces exactly one region, named by "anchor" or by "lines".`,
    hint: () => 'Keep one of "anchor" (text found once in the file) and "lines" ({ from, to }).',
  }),
  LabAnchorMissing: entry<{ suggestion: string; file: string }>({
    code: 'PK172',
    name: 'LabAnchorMissing',
    title: 'An anchor is not in its file',
    severity: 'error',
    message: ({ suggestion, file }) => `The anchor of the suggestion "${suggestion}" does not occur in starter/${file}, so its region cannot be found.`,
    hint: () => 'Copy the lines from the file; write them at column 0 (their own indentation is matched), and keep blank lines as they are.',
  }),
  LabAnchorAmbiguous: entry<{ suggestion: string; file: string; lines: string }>({
    code: 'PK173',
    name: 'LabAnchorAmbiguous',
    title: 'An anchor occurs more than once',
    severity: 'error',
    message: ({ suggestion, file, lines }) => `The anchor of the suggestion "${suggestion}" occurs more than once in starter/${file} (at lines ${lines}), so its region is ambiguous.`,
    hint: () => 'Make the anchor longer until it occurs once, or name the region by "lines".',
  }),
  LabLinesOutOfRange: entry<{ suggestion: string; file: string; from: number; to: number; count: number }>({
    code: 'PK175',
    name: 'LabLinesOutOfRange',
    title: 'A line range outside its file',
    severity: 'error',
    message: ({ suggestion, file, from, to, count }) => `The suggestion "${suggestion}" names lines ${from}-${to} of starter/${file}, which has ${count} lines.`,
    hint: () => 'Give 1-based line numbers with from <= to <= the number of lines.',
  }),
  LabRegionOverlap: entry<{ first: string; second: string }>({
    code: 'PK176',
    name: 'LabRegionOverlap',
    title: 'Two suggestions change the same lines',
    severity: 'error',
    message: ({ first, second }) =>
      `The regions of two suggestions overlap: ${first} and ${second}. Suggestions must replace disjoint regions, so that every combination of accepted, revised and rejected suggestions composes.`,
    hint: () => 'Split the lines between the two suggestions, or merge them into one suggestion.',
  }),
  LabVariantsSame: entry<{ suggestion: string; same: string }>({
    code: 'PK177',
    name: 'LabVariantsSame',
    title: 'Two versions of a suggestion are the same',
    severity: 'error',
    message: ({ suggestion, same }) =>
      `The suggestion "${suggestion}" has ${same} with the same text (trailing spaces and blank lines aside), so two choices of the candidate would be one, and a hand edit could not be told apart.`,
    hint: () => 'Make the starter\'s region, the offered change and the revised change three different texts.',
  }),
  LabFileProtected: entry<{ suggestion: string; file: string }>({
    code: 'PK178',
    name: 'LabFileProtected',
    title: 'A suggestion changes a protected file',
    severity: 'error',
    message: ({ suggestion, file }) => `The suggestion "${suggestion}" changes starter/${file}, which the prompt protects: the tests are the packet's, and a lab never lets the assistant change them.`,
    hint: () => 'Point the suggestion at the code under test, or remove the file from "protected".',
  }),
  LabFileOutsideAllow: entry<{ suggestion: string; file: string; allow: string }>({
    code: 'PK179',
    name: 'LabFileOutsideAllow',
    title: 'A suggestion changes a file outside the workspace contract',
    severity: 'error',
    message: ({ suggestion, file, allow }) => `The suggestion "${suggestion}" changes ${file}, which no workspace.allow glob covers (${allow}), so its key could never pass the judge.`,
    hint: ({ file }) => `Add "${file}" (or a glob that covers it) to workspace.allow.`,
  }),
  KindPartMissing: entry<{ kind: string; part: string; parts: string }>({
    code: 'PK180',
    name: 'KindPartMissing',
    title: 'A part of a lab or drill is missing',
    severity: 'error',
    message: ({ kind, part, parts }) => `This ${kind} has no ${part}.mdx. A ${kind} has the parts ${parts}.`,
    hint: ({ part }) => `Create ${part}.mdx (\`npx packet new <id> --kind lab\` or \`--kind drill\` scaffolds one).`,
  }),
  KindPartUnused: entry<{ kind: string; part: string; parts: string }>({
    code: 'PK181',
    name: 'KindPartUnused',
    title: 'A part the kind does not read',
    severity: 'warning',
    message: ({ kind, part }) => `${part}.mdx is not read for a ${kind}, so nothing in it reaches the candidate, the reviewer or the rehearsal.`,
    hint: ({ kind, parts }) => `Remove it, or change the prompt's kind (a ${kind} reads ${parts}).`,
  }),
  AssistantListMismatch: entry<{ kind: string; problem: string }>({
    code: 'PK182',
    name: 'AssistantListMismatch',
    title: 'The assistant part does not fit the kind',
    severity: 'error',
    message: ({ kind, problem }) => `The assistant.mdx of this ${kind} ${problem}. A lab lists "suggestions" (3 to 6); a drill lists "diffs" (3 to 8).`,
    hint: ({ kind }) => (kind === 'lab' ? 'List the suggestions under "suggestions:".' : 'List the diffs under "diffs:".'),
  }),
  LabTestCommand: entry<{ command: string }>({
    code: 'PK183',
    name: 'LabTestCommand',
    title: 'A lab\'s tests must run under unittest discovery',
    severity: 'error',
    message: ({ command }) =>
      `The lab's test command "${command}" is not "python3 -m unittest discover ...". Every combination of a lab is run by one unittest driver in the sandbox, which discovers the tests as that command does.`,
    hint: () => 'Use e.g. "python3 -m unittest discover -s tests -t . -q".',
  }),
  DrillDiffMalformed: entry<{ diff: string; line: number; reason: string }>({
    code: 'PK184',
    name: 'DrillDiffMalformed',
    title: 'A drill\'s diff is not a diff',
    severity: 'error',
    message: ({ diff, line, reason }) => `Line ${line} of the diff "${diff}" ${reason}. A diff's lines start with a space (unchanged), "+" (added) or "-" (removed), or are "@@" hunk headers.`,
    hint: () => 'Prefix every line; keep the indentation after the prefix, and write an empty unchanged line as a single space.',
  }),
  DrillTreeUnused: entry<{ tree: string }>({
    code: 'PK185',
    name: 'DrillTreeUnused',
    title: 'A drill holds code that nothing runs',
    severity: 'warning',
    message: ({ tree }) => `A drill runs no code and ships no zip, so ${tree}/ is not used.`,
    hint: () => 'Put the context a reviewer needs into each diff\'s "context", and remove the folder.',
  }),
  DrillChangeMissing: entry<{ diff: string }>({
    code: 'PK186',
    name: 'DrillChangeMissing',
    title: 'An accept-with-change verdict names no change',
    severity: 'error',
    message: ({ diff }) => `The key of the diff "${diff}" says accept-with-change but names no change, so the reviewer cannot tell whether the candidate asked for the right one.`,
    hint: () => 'Add key.change: the change a careful reviewer asks for.',
  }),
  AutoRowNotScorable: entry<{ row: string; auto: string; kind: string; scorable: string }>({
    code: 'PK187',
    name: 'AutoRowNotScorable',
    title: 'An automatic row this kind cannot score',
    severity: 'error',
    message: ({ row, auto, kind, scorable }) => `The rubric row "${row}" is scored automatically by "${auto}", which a ${kind} cannot give (it can: ${scorable}).`,
    hint: () => 'Use one of the automatic checks the kind gives, or remove "auto" and let the reviewer score the row.',
  }),
} as const;

/** The test table of a lab, computed at build (PK350-PK369). */
export const LabBundleErrors = {
  LabTableFailed: entry<{ packet: string; reason: string }>({
    code: 'PK350',
    name: 'LabTableFailed',
    title: 'A lab\'s test table could not be computed',
    severity: 'error',
    message: ({ packet, reason }) => `The test table of the lab "${packet}" could not be computed: ${reason}. "Run tests" on its page would show nothing true, so the build stops.`,
    hint: () => 'Run `npx packet rehearse <id>`: it computes the same table and says what failed.',
  }),
} as const;

/** The fails-closed rules of a lab, checked by the rehearsal (PK470-PK489). */
export const LabDefects = {
  LabKeyRed: entry<{ reason: string }>({
    code: 'PK470',
    name: 'LabKeyRed',
    title: 'The key\'s combination does not pass',
    severity: 'error',
    message: ({ reason }) => `The combination the key chooses is not PASS: ${reason.replace(/\.+$/, '')}. A candidate who chooses exactly right must end green, visible and held-out tests alike.`,
    hint: () => 'Fix the suggestions the key accepts or revises, or the tests; `npx packet rehearse <id>` shows the output tail.',
  }),
  LabWrongNotCaught: entry<{ suggestion: string; state: string; key: string }>({
    code: 'PK471',
    name: 'LabWrongNotCaught',
    title: 'A wrong choice passes every test',
    severity: 'error',
    message: ({ suggestion, state, key }) =>
      `Choosing "${state}" on "${suggestion}" (the key says "${key}"), with every other suggestion at the key, passes every visible and held-out test, and the suggestion is not declared reviewOnly: nothing catches this wrong choice.`,
    hint: ({ suggestion }) => `Add a test (held-out, if the visible ones must stay passable) that fails on it, or declare key.reviewOnly on "${suggestion}" with the reason only review can catch it.`,
  }),
  LabRightRejectedGreen: entry<{ suggestion: string; key: string }>({
    code: 'PK472',
    name: 'LabRightRejectedGreen',
    title: 'Rejecting a needed suggestion leaves the tests green',
    severity: 'error',
    message: ({ suggestion, key }) =>
      `Rejecting "${suggestion}" (the key says "${key}"), with every other suggestion at the key, passes every test: the tests do not need the change, so rejecting it cannot be told from judgement.`,
    hint: () => 'Add a test of the behaviour the suggestion brings.',
  }),
  LabAllOfferedGreen: entry({
    code: 'PK473',
    name: 'LabAllOfferedGreen',
    title: 'Accepting everything as offered is green',
    severity: 'error',
    message: () => 'Accepting every suggestion as offered passes every visible and held-out test, so a candidate who reviews nothing ends green.',
    hint: () => 'The assistant must be wrong somewhere a test can see: make an offered change wrong, and test it.',
  }),
  LabNothingPlausible: entry({
    code: 'PK474',
    name: 'LabNothingPlausible',
    title: 'No wrong suggestion passes the visible tests',
    severity: 'error',
    message: () =>
      'Every wrong suggestion, accepted as offered, fails a visible test, so "Run tests" alone tells the candidate what to reject. A lab needs at least one suggestion that passes the visible tests and is still wrong, as real ones are.',
    hint: () => 'Move the test that catches one wrong suggestion into hidden/, or add a suggestion whose flaw only review (reviewOnly) or the held-out tests catch.',
  }),
  LabTableDisagrees: entry<{ combination: string; table: string; judge: string }>({
    code: 'PK475',
    name: 'LabTableDisagrees',
    title: 'The test table disagrees with the judge',
    severity: 'error',
    message: ({ combination, table, judge }) =>
      `For the combination ${combination} the precomputed test table says ${table}, and the judge's own run says ${judge}. The page would show the candidate something the code does not do.`,
    hint: () => 'Look for a test that depends on order or on state left by an earlier test, or for code that behaves differently when imported in a forked process.',
  }),
  LabCalibration: entry<{ reason: string }>({
    code: 'PK476',
    name: 'LabCalibration',
    title: 'The rubric cannot tell the key from accepting everything',
    severity: 'error',
    message: ({ reason }) => `Scored with every judgement row at its best, ${reason}.`,
    hint: () => 'Give a row `auto: choices` or `auto: tests`, add a veto on it, or move the hire bar.',
  }),
} as const;
