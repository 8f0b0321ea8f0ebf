import { entry } from './entry.ts';

/** A list of ids, cut after `max` (a placeholder string passes through, for the generated reference). */
const list = (ids: readonly string[] | string, max = 6) => (typeof ids === 'string' ? ids : `${ids.slice(0, max).join(', ')}${ids.length > max ? ` and ${ids.length - max} more` : ''}`);
/** How many ids, with the noun in the right number. */
const count = (ids: readonly string[] | string, one: string, many = `${one}s`) => (typeof ids === 'string' ? `<n> ${many}` : `${ids.length} ${ids.length === 1 ? one : many}`);

/**
 * What the judge finds in one workspace (PK410-PK439): every reason a run is not PASS, each
 * with its place and fix. The same findings come back from rehearsal checks, model runs and
 * grading. Never renumber or rename an entry.
 */
export const JudgeFindings = {
  SandboxRunFailed: entry<{ reason: string }>({
    code: 'PK410',
    name: 'SandboxRunFailed',
    title: 'The sandbox could not run the tests',
    severity: 'error',
    message: ({ reason }) => `The sandbox could not run the test command: ${reason}. Nothing was judged; the result is INCONCLUSIVE, never a pass.`,
    hint: () => 'Run `npx packet rehearse` on the same machine to see whether the sandbox passes its self-test; check free disk space in TMPDIR.',
  }),
  RunTimedOut: entry<{ seconds: number }>({
    code: 'PK411',
    name: 'RunTimedOut',
    title: 'The tests hung',
    severity: 'error',
    message: ({ seconds }) => `The test run was killed at the time limit (${seconds} s) before it finished, so no test result counts.`,
    hint: () => 'Look for an endless loop, a real sleep or a wait on the network in the code under test; raise --timeout only if the packet is honestly slow.',
  }),
  OutputFlooded: entry({
    code: 'PK412',
    name: 'OutputFlooded',
    title: 'The tests flooded their output',
    severity: 'error',
    message: () => 'The test run printed far past the output cap and was killed, so no test result counts.',
    hint: () => 'Remove the print in a loop; the last lines of the output show where it came from.',
  }),
  RunCrashed: entry<{ reason: string }>({
    code: 'PK413',
    name: 'RunCrashed',
    title: 'The tests crashed before testing',
    severity: 'error',
    message: ({ reason }) => `The test run crashed: ${reason}. A crash is red, and it is not a test failing for the right reason.`,
    hint: () => 'Run the test command in the workspace and read the first traceback: usually a syntax error or a missing name in the code under test.',
  }),
  TestsFailed: entry<{ ids: string[] }>({
    code: 'PK415',
    name: 'TestsFailed',
    title: 'Visible tests fail',
    severity: 'error',
    message: ({ ids }) => `${count(ids, 'visible test')} failed: ${list(ids)}.`,
    hint: () => 'The candidate can run these tests themselves with the packet\'s test command.',
  }),
  HiddenTestsFailed: entry<{ ids: string[] }>({
    code: 'PK416',
    name: 'HiddenTestsFailed',
    title: 'Held-out tests fail',
    severity: 'error',
    message: ({ ids }) => `${count(ids, 'held-out test')} failed: ${list(ids)}.`,
    hint: () => 'The answer works on the visible cases only; the held-out tests name the behaviour it misses.',
  }),
  TestsMissing: entry<{ expected: number; ran: number | null; detail: string }>({
    code: 'PK417',
    name: 'TestsMissing',
    title: 'Expected tests did not run',
    severity: 'error',
    message: ({ expected, ran, detail }) =>
      `The test files define ${expected} test${expected === 1 ? '' : 's'} (the kit's own canaries included), but the runner reports ${ran ?? 'no'} run${detail ? `: ${detail}` : ''}. A test that did not run proves nothing, so the run is red.`,
    hint: () => 'Check that the test command discovers every test file (its pattern and start folder), and that no test is generated at import time.',
  }),
  TestsSkipped: entry<{ count: number }>({
    code: 'PK418',
    name: 'TestsSkipped',
    title: 'Tests were skipped',
    severity: 'error',
    message: ({ count }) => `${count} test${count === 1 ? ' was' : 's were'} skipped. A skipped test proves nothing, so the run is not green.`,
    hint: () => 'Packet tests must not skip; code that raises SkipTest inside the code under test is an attempt to dodge them.',
  }),
  UnexpectedSuccess: entry<{ count: number }>({
    code: 'PK419',
    name: 'UnexpectedSuccess',
    title: 'A test marked to fail passed',
    severity: 'error',
    message: ({ count }) => `${count} test${count === 1 ? '' : 's'} marked as expected failures passed, which the runner counts as a failure of the suite.`,
    hint: () => 'Remove the expected-failure mark from the test, or fix what it marks.',
  }),
  CanaryNotFailed: entry<{ passed: string[]; missing: string[] }>({
    code: 'PK420',
    name: 'CanaryNotFailed',
    title: 'Tampered: the kit\'s canary tests did not fail',
    severity: 'error',
    message: ({ passed, missing }) =>
      `Before the run the kit planted canary tests that must fail, with random names, one per test file.${passed.length ? ` The runner reported ${count(passed, 'canary', 'canaries')} passed (${list(passed, 3)}).` : ''}${missing.length ? ` The runner did not report ${count(missing, 'canary', 'canaries')} failed (${list(missing, 3)}).` : ''} Something in the run reports results the tests did not produce, so no result of this run counts.`,
    hint: () => 'Look for code that patches the test runner (TestCase.run, result objects), prints its own summary, exits early (os._exit, sys.exit at import) or rewrites test files.',
  }),
  ExitDisagrees: entry<{ exitCode: number | null }>({
    code: 'PK421',
    name: 'ExitDisagrees',
    title: 'Tampered: the exit code contradicts the results',
    severity: 'error',
    message: ({ exitCode }) =>
      `The runner reported failing tests (at least the kit's canaries), yet the process exited ${exitCode}. An honest runner exits non-zero when a test fails, so the exit status was forged.`,
    hint: () => 'Look for os._exit(0), sys.exit(0) or an atexit hook in the code under test.',
  }),
  SummaryRepeated: entry<{ count: number }>({
    code: 'PK422',
    name: 'SummaryRepeated',
    title: 'Tampered: more than one test summary',
    severity: 'error',
    message: ({ count }) => `The output holds ${count} test-summary lines; the runner prints one. Something else printed a summary to pass for the runner's.`,
    hint: () => 'Look for code that prints "Ran N tests" / "OK" or a pytest totals line.',
  }),
  NoExpectedTests: entry<{ reason: string }>({
    code: 'PK423',
    name: 'NoExpectedTests',
    title: 'The kit cannot tell which tests must run',
    severity: 'error',
    message: ({ reason }) => `No expected test could be read from the test files: ${reason}. Without them a run cannot be shown complete, so it is never green.`,
    hint: () => 'Use unittest or pytest in the test command, and keep the tests in protected test files (test_*.py) or hidden/.',
  }),
  ProtectedEdited: entry<{ file: string; change: string }>({
    code: 'PK424',
    name: 'ProtectedEdited',
    title: 'A protected file was touched',
    severity: 'error',
    message: ({ file, change }) => `${file} is protected, and the submission ${change} it. The packet's copy was restored for the run, and the touch stays a finding.`,
    hint: () => 'Protected files (the tests, fixtures) are the packet\'s; change the code under test instead.',
  }),
  ProtectedChangedDuringRun: entry<{ file: string; problem: string }>({
    code: 'PK425',
    name: 'ProtectedChangedDuringRun',
    title: 'Tampered: a protected file changed during the run',
    severity: 'error',
    message: ({ file, problem }) => `After the run, the protected file ${file} ${problem}. Code under test rewrote what judges it, so no result of this run counts.`,
    hint: () => 'Look for code that writes to the tests or fixtures at import or at exit.',
  }),
  OutsideAllowed: entry<{ file: string; allow: string }>({
    code: 'PK426',
    name: 'OutsideAllowed',
    title: 'A file outside the workspace contract',
    severity: 'error',
    message: ({ file, allow }) => `${file} was added, changed or deleted, and it is outside the files the prompt allows (${allow}).`,
    hint: () => 'Keep every change inside workspace.allow; a new module elsewhere is a dependency nobody asked for.',
  }),
  ForbiddenPattern: entry<{ file: string; line: number; reason: string; pattern: string }>({
    code: 'PK427',
    name: 'ForbiddenPattern',
    title: 'A forbidden pattern',
    severity: 'error',
    message: ({ file, line, reason, pattern }) => `${file}:${line} matches the forbidden pattern /${pattern}/: ${reason}`,
    hint: () => 'The prompt\'s hard limits forbid this; remove it.',
  }),
  RunnerHook: entry<{ file: string }>({
    code: 'PK428',
    name: 'RunnerHook',
    title: 'A file that hooks the interpreter or the test runner',
    severity: 'error',
    message: ({ file }) =>
      `${file} is a file the interpreter or the test runner loads by itself (conftest.py, sitecustomize.py, usercustomize.py, *.pth), so it can change how the tests run or what they report.`,
    hint: () => 'Remove it; the tests run with the packet\'s own configuration only.',
  }),
  DeliverableMissing: entry<{ deliverable: string }>({
    code: 'PK429',
    name: 'DeliverableMissing',
    title: 'A deliverable is missing',
    severity: 'error',
    message: ({ deliverable }) => `The deliverable ${deliverable} is missing or empty.`,
    hint: ({ deliverable }) => `Hand in ${deliverable}; the prompt lists it under deliverables.`,
  }),
  SignalMatched: entry<{ mode: string; title: string; where: string; line: string }>({
    code: 'PK430',
    name: 'SignalMatched',
    title: 'A failure signal matched',
    severity: 'error',
    message: ({ mode, title, where, line }) => `The signal of the failure mode "${title}" (${mode}) matches in ${where}: ${line}`,
    hint: ({ mode }) => `The failure catalog describes this death under "${mode}"; the rubric row it caps is capped.`,
  }),
  UnsafeFile: entry<{ file: string; kind: string }>({
    code: 'PK431',
    name: 'UnsafeFile',
    title: 'A file the kit will not read',
    severity: 'error',
    message: ({ file, kind }) => `${file} is ${kind}; the kit reads only regular files of bounded size from a workspace and never follows links, so it was not read.`,
    hint: () => 'Submit plain files only: no symlinks, FIFOs, devices or oversized files.',
  }),
  ContractPatternInvalid: entry<{ pattern: string; reason: string }>({
    code: 'PK432',
    name: 'ContractPatternInvalid',
    title: 'A forbidden pattern does not compile',
    severity: 'error',
    message: ({ pattern, reason }) => `The workspace.forbid pattern /${pattern}/ is not a valid regular expression (${reason}), so the contract cannot be checked, and the run is not green.`,
    hint: () => 'Fix the pattern in prompt.mdx; `npx packet check` reports it at its line.',
  }),
  RecordBroken: entry<{ reason: string }>({
    code: 'PK433',
    name: 'RecordBroken',
    title: 'Tampered: the harness\'s record is broken',
    severity: 'error',
    message: ({ reason }) =>
      `The kit's test harness writes each test's outcome on a private pipe, every line sealed with a key made for this run. Here ${reason}, so the outcomes cannot be trusted and no result of this run counts.`,
    hint: () => 'Look for code under test that exits the process early (os._exit, a signal to itself), closes or writes to descriptors it did not open, or floods the harness with output.',
  }),
  MachineryTampered: entry<{ where: string; problems: string[] }>({
    code: 'PK434',
    name: 'MachineryTampered',
    title: 'Tampered: the test machinery was changed',
    severity: 'error',
    message: ({ where, problems }) =>
      `The harness compares the test machinery (unittest's classes and functions, builtins, import hooks, tracers) with the one it captured at start; ${where} it found: ${list(problems, 4)}. The harness decides outcomes with its own copies, and the change itself is evidence of tampering.`,
    hint: () => 'Code under test has no business with the test runner: remove the patch of unittest, builtins or sys that the finding names.',
  }),
  IntrospectionRefused: entry<{ event: string; file: string; line: number; detail: string }>({
    code: 'PK435',
    name: 'IntrospectionRefused',
    title: 'Tampered: code under test reached for the running tests',
    severity: 'error',
    message: ({ event, file, line, detail }) =>
      `At ${file}:${line} the code under test asked for ${event} (${detail}). The harness's audit hook, installed before any candidate code was imported, refused it: frames, gc, tracers, ctypes, code objects, process memory and the test modules' own source lead to the tests that judge the code.`,
    hint: () => 'Compute the answer from the inputs; never read the caller\'s frame, the garbage collector or the process\'s memory.',
  }),
  PrimitiveUsed: entry<{ file: string; line: number; primitive: string; detail: string; more?: number }>({
    code: 'PK436',
    name: 'PrimitiveUsed',
    title: 'Tampered: a test-machinery or introspection primitive in candidate code',
    severity: 'error',
    message: ({ file, line, primitive, detail, more }) =>
      `The static screen, run on the candidate's files before any of them is imported, found ${primitive} at ${file}:${line}${more ? ` (and ${more} more in the file)` : ''}: ${detail}. Candidate code needs such a primitive only to reach the tests that judge it.`,
    hint: ({ primitive }) => `Remove it; if the packet truly needs ${primitive}, allow it in prompt.mdx under workspace.allowPrimitives with a reason.`,
  }),
  CodingCookie: entry<{ file: string; line: number; detail: string }>({
    code: 'PK437',
    name: 'CodingCookie',
    title: 'Tampered: a source encoding other than UTF-8',
    severity: 'error',
    message: ({ file, line, detail }) =>
      `${file}:${line} declares a source encoding other than UTF-8 (${detail}). Python decodes the file that way, so what a reader and a pattern see is not what runs.`,
    hint: () => 'Save the file as UTF-8 and drop the coding line.',
  }),
  ForeignTest: entry<{ ids: string[]; problem: string }>({
    code: 'PK438',
    name: 'ForeignTest',
    title: 'Tampered: a test runs code from outside the packet\'s tests',
    severity: 'error',
    message: ({ ids, problem }) => `The harness found ${count(ids, 'test')} whose method is not the packet's (${list(ids, 3)}): the first ${problem}. The harness runs only test methods written in the packet's test files, so these count as failed and as tampering.`,
    hint: () => 'Look for code under test that wraps or replaces test methods (a __build_class__ hook, a metaclass, a decorator).',
  }),
  OutputTruncated: entry<{ bytes: number }>({
    code: 'PK439',
    name: 'OutputTruncated',
    title: 'The run\'s output was cut',
    severity: 'error',
    message: ({ bytes }) => `The run printed more than the ${bytes} bytes kept per stream, so the output is cut: nothing read from it (the output signals) saw all of it, and a cut stream is never read as a whole report.`,
    hint: () => 'Remove the flood of prints or logging from the code under test; the tests\' outcomes come from the harness, but the output signals need the whole output.',
  }),
} as const satisfies Record<string, ReturnType<typeof entry<any>>>;

/**
 * Why a rehearsal check of a packet failed (PK440-PK469): the packet itself is defective, or a
 * check could not be judged. Never renumber or rename an entry.
 */
export const RehearsalDefects = {
  FloorGreen: entry({
    code: 'PK440',
    name: 'FloorGreen',
    title: 'The starter already passes',
    severity: 'error',
    message: () => 'The starter passes its visible tests, so the task is done before it starts.',
    hint: () => 'Break the starter where the task is, or add the visible test that shows the bug.',
  }),
  FloorWrongReason: entry<{ reason: string }>({
    code: 'PK441',
    name: 'FloorWrongReason',
    title: 'The starter is red for the wrong reason',
    severity: 'error',
    message: ({ reason }) => `The starter is red for the wrong reason: ${reason}. A candidate must start from tests that fail an assertion, not from a crash.`,
    hint: () => 'Make the starter import and run; leave the bug in its behaviour, where a visible test fails on it.',
  }),
  FloorWrongTests: entry<{ missing: string[]; extra: string[] }>({
    code: 'PK442',
    name: 'FloorWrongTests',
    title: 'The starter fails other tests than declared',
    severity: 'error',
    message: ({ missing, extra }) =>
      `The starter fails other tests than sample.mdx floor.failing declares${missing.length ? `; declared but passing: ${list(missing)}` : ''}${extra.length ? `; failing but not declared: ${list(extra)}` : ''}.`,
    hint: () => 'Update floor.failing in sample.mdx (ids as the runner prints them, e.g. tests.test_x.TestY.test_z), or fix the starter.',
  }),
  SampleRed: entry<{ reason: string }>({
    code: 'PK443',
    name: 'SampleRed',
    title: 'The sample does not pass',
    severity: 'error',
    message: ({ reason }) => `The sample solution is not PASS: ${reason}. No candidate can be expected to pass what the packet's own answer does not.`,
    hint: () => 'Run the sample with its hidden tests (`npx packet rehearse <id>` shows the output tail) and fix the sample or the tests.',
  }),
  HiddenNotRun: entry<{ sampleRan: number; floorRan: number }>({
    code: 'PK445',
    name: 'HiddenNotRun',
    title: 'The hidden tests did not run',
    severity: 'error',
    message: ({ sampleRan, floorRan }) => `The sample ran ${sampleRan} tests, the starter ${floorRan}: the hidden tests were not picked up by the test command.`,
    hint: () => 'Name the hidden test files so the test command discovers them (e.g. hidden/tests/test_hidden_x.py for `discover -s tests`).',
  }),
  MutantSurvived: entry<{ mode: string; title: string; ran: number | null }>({
    code: 'PK446',
    name: 'MutantSurvived',
    title: 'A failure mode survives the tests',
    severity: 'error',
    message: ({ mode, title, ran }) => `The tests miss the failure "${title}" (${mode}): its mutant passes all ${ran ?? 0} tests.`,
    hint: ({ mode }) => `Add a test (visible or hidden) that fails on mutants/${mode}.`,
  }),
  SignalInvalid: entry<{ mode: string; reason: string }>({
    code: 'PK447',
    name: 'SignalInvalid',
    title: 'A signal does not compile',
    severity: 'error',
    message: ({ mode, reason }) => `The signal of "${mode}" is not a valid regular expression: ${reason}.`,
    hint: () => 'Fix signal.pattern in failures.mdx (JavaScript regular expression syntax).',
  }),
  SignalMissesMutant: entry<{ mode: string; searched: string }>({
    code: 'PK448',
    name: 'SignalMissesMutant',
    title: 'A signal misses its own mutant',
    severity: 'error',
    message: ({ mode, searched }) => `The signal of "${mode}" does not match its own mutant (searched ${searched}), so a reviewer grepping for it would miss this failure.`,
    hint: () => 'Widen the pattern, or check signal.in and signal.files point where the mutant changes code (in: diff searches only added lines, without the leading +).',
  }),
  SignalMatchesSample: entry<{ mode: string; where: string; line: string }>({
    code: 'PK449',
    name: 'SignalMatchesSample',
    title: 'A signal matches the sample',
    severity: 'error',
    message: ({ mode, where, line }) => `The signal of "${mode}" also matches the sample solution (${where}: ${line}), so it would flag a good answer.`,
    hint: () => 'Narrow the pattern, or limit signal.files to the files the failure lives in.',
  }),
  CalibrationSample: entry<{ reason: string }>({
    code: 'PK450',
    name: 'CalibrationSample',
    title: 'The sample does not clear the hire bar',
    severity: 'error',
    message: ({ reason }) => `Scored with every judgement row at its best and the automatic rows from its evidence, the sample does not clear the rubric's own hire bar (${reason}).`,
    hint: () => 'Lower the hire bar, or check the rows with `auto` (tests, visible-tests, hidden-tests, protected, workspace): the sample must earn them.',
  }),
  CalibrationMutant: entry<{ mode: string; title: string; total: number; max: number; hireBar: number }>({
    code: 'PK451',
    name: 'CalibrationMutant',
    title: 'The rubric cannot tell a failure from a hire',
    severity: 'error',
    message: ({ mode, title, total, max, hireBar }) =>
      `The rubric cannot tell "${title}" (${mode}) from a hire: scored with every judgement row at its best, the mutant still gets ${total} of ${max} (hire bar ${hireBar}) and trips no veto.`,
    hint: () => 'Give a row `auto: tests` or `auto: hidden-tests` so the machine scores it from the evidence, cap a row lower in the mode\'s caps, add a veto, or raise the hire bar.',
  }),
  ReplySampleFails: entry<{ verdict: string; reason: string }>({
    code: 'PK452',
    name: 'ReplySampleFails',
    title: 'The scripted sample reply does not pass',
    severity: 'error',
    message: ({ verdict, reason }) => `The sample reply (replies/sample.md) ends ${verdict}: ${reason}. A model that answers like the sample would be failed.`,
    hint: () => 'Make replies/sample.md hand in what the sample does, deliverables included, and nothing outside workspace.allow.',
  }),
  ReplyNotCaught: entry<{ mode: string; title: string }>({
    code: 'PK453',
    name: 'ReplyNotCaught',
    title: 'A scripted failure reply passes',
    severity: 'error',
    message: ({ mode, title }) => `The packet passes the scripted reply for "${title}" (${mode}): every test is green, every check is clean and no signal matches.`,
    hint: () => 'Add a test or sharpen the signal so this answer fails.',
  }),
  ReplyUnusable: entry<{ reply: string; reason: string }>({
    code: 'PK454',
    name: 'ReplyUnusable',
    title: 'A scripted reply cannot be applied',
    severity: 'error',
    message: ({ reply, reason }) => `The scripted reply replies/${reply}.md cannot be applied: ${reason}.`,
    hint: () => 'Write the reply as whole files in fenced blocks with path=..., or one unified diff against the starter.',
  }),
  CheckInconclusive: entry<{ check: string; reason: string }>({
    code: 'PK455',
    name: 'CheckInconclusive',
    title: 'A check could not be judged',
    severity: 'error',
    message: ({ check, reason }) => `The check ${check} could not be judged: ${reason}. An inconclusive check is never a pass; the rehearsal exits 2.`,
    hint: () => 'See the sandbox or endpoint problem named; rerun once it is fixed.',
  }),
  SampleBreaksPacket: entry<{ what: string; findings: string }>({
    code: 'PK456',
    name: 'SampleBreaksPacket',
    title: 'The sample breaks its own packet\'s rules',
    severity: 'error',
    message: ({ what, findings }) => `${what} does not keep its own packet's rules: ${findings}.`,
    hint: () => 'The sample must obey the prompt it answers: deliverables present, protected files untouched, only workspace.allow paths changed, no forbidden pattern.',
  }),
} as const satisfies Record<string, ReturnType<typeof entry<any>>>;

/** A rehearsal run's own output (PK490-PK499): what it writes, not what it checks. Never renumber or rename an entry. */
export const RehearsalRunErrors = {
  RehearsalReportUnwritable: entry<{ file: string; reason: string; fix: string }>({
    code: 'PK490',
    name: 'RehearsalReportUnwritable',
    title: 'The rehearsal report cannot be written',
    severity: 'error',
    message: ({ file, reason }) =>
      `The rehearsal report ${file} cannot be written: ${reason}. A rehearsal whose report is lost proves nothing to the build, so the run is inconclusive (exit 2); no half-written report is left.`,
    hint: ({ fix }) => `${fix[0]!.toUpperCase()}${fix.slice(1)} (--report FILE and --junit FILE choose the files), then rehearse again.`,
  }),
  RehearsalOutUnwritable: entry<{ folder: string; reason: string; fix: string }>({
    code: 'PK491',
    name: 'RehearsalOutUnwritable',
    title: 'The model runs\' folder cannot be written',
    severity: 'error',
    message: ({ folder, reason }) =>
      `The model runs' folder ${folder} cannot be written: ${reason}. Their receipts (usage.jsonl, ledger.json, give_up.json) would be lost, so the rehearsal stops there and is inconclusive (exit 2).`,
    hint: ({ fix }) => `${fix[0]!.toUpperCase()}${fix.slice(1)} (--out DIR chooses the folder), then rehearse again.`,
  }),
  ReportOutUnwritable: entry<{ command: string; what: string; place: string; reason: string; fix: string; flag: string }>({
    code: 'PK492',
    name: 'ReportOutUnwritable',
    title: 'A report of rehearsals cannot be written',
    severity: 'error',
    message: ({ command, what, place, reason }) =>
      `${what[0]!.toUpperCase()}${what.slice(1)} ${place} cannot be written: ${reason}. packet ${command} exits 2; no half-written file is left.`,
    hint: ({ fix, flag }) => `${fix[0]!.toUpperCase()}${fix.slice(1)} (${flag} chooses it), then run it again.`,
  }),
} as const satisfies Record<string, ReturnType<typeof entry<any>>>;
