import { defineCommand, type CommandSpec, type FlagSpec } from './flags.ts';

/**
 * Every command's synopsis, description, flags and exit codes: the one source of parseArgs'
 * options, of each `--help` and of the CLI reference (docs/cli.md). Data only, so `packet --help`
 * and the docs read it without loading a command.
 */

/** Flags several commands share, defined once. */
export const SHARED_FLAGS = {
  packets: { type: 'string', value: 'DIR', default: 'packets', description: 'the packets folder' },
  jobs: { type: 'integer', min: 1, value: 'N', defaultText: 'number of cores', description: 'sandbox runs at once' },
  timeout: { type: 'number', above: 0, value: 'S', default: 30, description: 'seconds per test run in the sandbox' },
  unconfined: {
    type: 'boolean',
    default: false,
    description: "where bubblewrap is unusable, run the packets' own trees without isolation (never for submissions or model replies)",
  },
  report: { type: 'string', value: 'FILE', default: 'out/rehearsal/report.json', description: 'the JSON rehearsal report' },
  config: { type: 'string', value: 'FILE', defaultText: 'packet-kit.config.json, if present', description: 'the lint settings' },
} as const satisfies Record<string, FlagSpec>;

/** The heading of rehearse's live-model flags. */
const LIVE_MODEL = 'Live models, on top (one run per packet and model, receipts in <out>/<packet>/, or <out>/<packet>/<model>/ with several models)';

/** The budget flags of commands that call a model: they lower the packet's budget, never raise it. */
const budgetFlags = (group?: string) =>
  ({
    'max-calls': { type: 'integer', min: 1, value: 'N', description: "lower the packet's budget.modelCalls (flags never raise a budget)", ...(group ? { group } : {}) },
    'max-tokens': { type: 'integer', min: 1, value: 'N', description: "lower the packet's budget.tokens", ...(group ? { group } : {}) },
    'max-seconds': { type: 'integer', min: 1, value: 'S', description: "lower the packet's budget.wallSeconds", ...(group ? { group } : {}) },
    'max-identical-errors': { type: 'integer', min: 1, value: 'N', description: "lower the packet's budget.identicalErrors", ...(group ? { group } : {}) },
  }) as const satisfies Record<string, FlagSpec>;

/** The `--variants N` flag of build and rehearse (1..100, as a packet's variants.count); what N does is each command's. */
const variantsFlag = (description: string) =>
  ({ type: 'integer', min: 1, max: 100, value: 'N', defaultText: "each packet's variants.count", description }) as const satisfies FlagSpec;

export const checkSpec = defineCommand({
  name: 'check',
  summary: 'validate and lint packets',
  usage: '[ids...] [options]',
  description: `Validate every packet (frontmatter, cross-file references, file names, trees), lint
every packet that parsed (the method's rules on its Markdown, codes PK2xx), and report every
problem of every packet in one run, as file:line:col CODE message with a hint. On a terminal,
each comes with a code frame. \`packet explain CODE\` says more about a code, \`packet explain
FIELD\` about a frontmatter field.`,
  positionals: true,
  flags: {
    packets: SHARED_FLAGS.packets,
    format: { type: 'string', value: 'F', default: 'text', choices: ['text', 'json'], description: 'the report: text, or a JSON document' },
    strict: { type: 'boolean', default: false, description: 'warnings fail the run too' },
    config: SHARED_FLAGS.config,
    lint: { type: 'boolean', default: true, negatable: true, description: 'validate only, without the lint' },
    'no-cache': { type: 'boolean', default: false, description: 'lint every packet again, without the results of earlier runs (node_modules/.cache/packet-kit/lint/)' },
    'out-dir': {
      type: 'string',
      value: 'DIR',
      default: 'dist',
      description: 'the built site: a packet whose content changed since the build in DIR/packets.json, with the same version, is a warning (PK311)',
    },
  },
  notes: `Lint settings come in layers: packet-kit.config.json at the project root,
  { "lint": { "rules": { "prompt-length": ["error", { "max": 250 }], "code-fence-lang": "off" } } }
then packets/<id>/lint.json for one packet,
  { "rules": { "prompt-length": "warning" } }
then comments in a part body: {/* packet-lint-disable RULE */} (the whole file)
and {/* packet-lint-disable-next-line RULE */} (the next non-blank line).`,
  exit: '0 clean, 1 errors (warnings too with --strict), 2 a wrong flag.',
});

export const newSpec = defineCommand({
  name: 'new',
  summary: 'scaffold a packet that passes check',
  usage: '<id> [options]',
  description: `Scaffold packets/<id>/ as a small working packet, ready to edit: a take-home (the four
parts and the starter, sample, hidden, mutants and replies trees), a lab (prompt, rubric and
assistant.mdx with three suggestions, the starter with its README of rules, and hidden tests)
or a drill (prompt, rubric and assistant.mdx with three diffs to review). The new packet passes
\`packet check\` and fails closed; every field is explained by \`packet explain prompt\` (and
rubric, sample, failures, assistant).`,
  positionals: true,
  flags: {
    packets: SHARED_FLAGS.packets,
    kind: { type: 'string', value: 'K', default: 'takehome', choices: ['takehome', 'lab', 'drill'], description: 'what to scaffold' },
    title: { type: 'string', value: 'TEXT', defaultText: 'the id in words', description: "the packet's title" },
    variants: {
      type: 'boolean',
      default: false,
      description:
        'a packet with variant parameters (docs/variants.md): a take-home whose function is named by [[variant.func]], one of three names per variant; with --kind lab, a lab whose slug limit is [[variant.limit]] (45, 50 or 55) in its starter, a suggestion, the visible and the hidden tests. Not for a drill',
    },
  },
  exit: '0 created, 1 the folder exists, 2 a wrong id, kind or flag, or a packets folder that cannot be written (PK193).',
});

export const rehearseSpec = defineCommand({
  name: 'rehearse',
  summary: 'prove every packet fails closed, in a sandbox',
  usage: '[ids...] [options]',
  description: `Prove every packet fails closed, in a sandbox: the starter is red for the right
reason, the sample is green with the hidden tests, every failure mode's mutant is killed, every
signal matches its mutant and not the sample, the rubric tells the sample from each mutant, and
every scripted reply goes through the model pipeline (embedded endpoint on 127.0.0.1, client,
ledger, sandbox): the sample reply must PASS, each failure reply must be caught.`,
  positionals: true,
  flags: {
    packets: SHARED_FLAGS.packets,
    jobs: SHARED_FLAGS.jobs,
    report: SHARED_FLAGS.report,
    junit: { type: 'string', value: 'FILE', description: 'also write the report as JUnit XML (a test case per check and per model run)' },
    'no-cache': { type: 'boolean', default: false, description: 'rehearse even unchanged packets' },
    timeout: SHARED_FLAGS.timeout,
    unconfined: SHARED_FLAGS.unconfined,
    shard: {
      type: 'string',
      value: 'I/N',
      description:
        'rehearse only shard I of N (e.g. 2/3): each packet is in exactly one shard, chosen from its id alone, so adding a packet moves no other; join the reports with merge-reports',
    },
    variants: variantsFlag(
      'prove N variants of every packet with parameters, as packet build --variants N makes them: each rehearsed, the leak check, the weaker variants; more than the parameters\' combinations is PK153 (docs/variants.md)',
    ),
    endpoint: {
      type: 'string',
      value: 'URL',
      defaultText: '$LLM_ENDPOINT, then $OPENAI_BASE_URL; none: the embedded scripted endpoint',
      description: 'an OpenAI-compatible API',
      group: LIVE_MODEL,
    },
    model: {
      type: 'string',
      value: 'A,B,C',
      defaultText: 'with an endpoint: $LLM_MODEL',
      description:
        "the model ids, comma-separated; every packet runs against each; {packet} is replaced by each packet's id (e.g. scripted:{packet}/sample, fault:500 on the embedded endpoint)",
      group: LIVE_MODEL,
    },
    'endpoint-jobs': {
      type: 'integer',
      min: 1,
      value: 'N',
      default: 2,
      description: 'model calls in flight at once against the endpoint, all models and packets together; a rate-limit answer pauses every run against it, not just the one told',
      group: LIVE_MODEL,
    },
    'api-key-env': {
      type: 'string',
      value: 'VAR',
      default: 'OPENAI_API_KEY',
      description: 'the variable holding the key; the key is never printed or written',
      group: LIVE_MODEL,
    },
    out: {
      type: 'string',
      value: 'DIR',
      defaultText: 'out/rehearsals/<timestamp>',
      description: 'the receipts folder',
      group: LIVE_MODEL,
    },
    ...budgetFlags(LIVE_MODEL),
    feedback: { type: 'integer', min: 0, value: 'N', default: 2, description: 'feedback turns with the failing visible tests', group: LIVE_MODEL },
    stall: { type: 'integer', min: 1, value: 'K', default: 2, description: 'stop after K answers that change no test result', group: LIVE_MODEL },
    'attempt-timeout': { type: 'integer', min: 1, value: 'S', default: 120, description: 'seconds per model call attempt', group: LIVE_MODEL },
    'max-reply-tokens': {
      type: 'integer',
      min: 1,
      value: 'N',
      default: 4096,
      description: "the max_tokens each request sends; a call is made only when the tokens spent, the prompt's estimate and this fit the token budget",
      group: LIVE_MODEL,
    },
  },
  notes: 'Environment: PACKET_KIT_BWRAP=PATH uses that bwrap instead of the one on PATH.',
  exit: '0 every packet fails closed and every model run ended PASS, CAUGHT, FALSE-GREEN or GAVE-UP; 1 packet defects; 2 anything inconclusive (a dead endpoint included), a report or the model runs\' folder that cannot be written (PK490, PK491), or a wrong flag.',
});

export const buildSpec = defineCommand({
  name: 'build',
  summary: 'check, rehearse, zips, site and reviewer bundles, all or nothing',
  usage: '[id...] [options]',
  description: `Build everything that ships, or nothing: every packet of the folder, or only the
packets named (\`packet build fetch-retry-ticket drill-retry-backoff\`), so a bad packet outside
them never stops the build. The publish replaces the site and the reviewer bundles whole: a build
of some packets publishes a site and bundles of those packets only (packets.json, the pages, the
zips and the search index list only them).
  1. check      validate and lint every packet built; an error stops the build;
                an id the folder does not hold is PK114
  2. rehearse   the offline rehearsal (cached); a defect or an inconclusive
                packet stops the build
     labs       every lab's test table (cached; also with --skip-rehearse),
                dist/packets/<id>/combinations.json
  3. zips       the candidate zips <id>-<version>.zip (deterministic; refused
                files and secrets stop the build) and packets.json; a packet
                with parameters has one per variant, <id>-<version>-v<k>.zip
  4. site       the Astro site, and its search index
  5. canary     every secret line of every packet is searched in the whole
                site, zips opened; a leak stops the build
  6. reviewer   the reviewer bundles (all trees, KEY.md, the rehearsal result,
                the last packet mutate run; a lab's LAB-KEY.json, a drill's
                DRILL-KEY.json)
  7. publish    the new site and bundles replace the old ones as a pair

Everything is built in staging folders beside the targets. Publishing writes a journal first,
so a build killed at any moment leaves the previous pair or the new one: the next build finishes
or undoes an interrupted publish before it starts.`,
  positionals: true,
  flags: {
    packets: SHARED_FLAGS.packets,
    'out-dir': { type: 'string', value: 'DIR', default: 'dist', description: 'the site; zips in DIR/zips/' },
    'reviewer-dir': { type: 'string', value: 'DIR', default: 'out/reviewer', description: 'the reviewer bundles' },
    'skip-rehearse': { type: 'boolean', default: false, description: 'a quick preview: no rehearsal, every packet is shown as "not rehearsed"' },
    variants: variantsFlag(
      'make N variants of every packet with parameters: one zip each, <id>-<version>-v<k>.zip, in the reviewer folder, variants/<id>-<version>/, with VARIANTS.json; a lab gets a page, a test table and a key per variant (/labs/<id>/v<k>/, v<k>/LAB-KEY.json) (docs/variants.md)',
    ),
    unconfined: SHARED_FLAGS.unconfined,
    jobs: SHARED_FLAGS.jobs,
    timeout: SHARED_FLAGS.timeout,
    report: SHARED_FLAGS.report,
    config: SHARED_FLAGS.config,
    'site-root': { type: 'string', value: 'DIR', defaultText: "packet-kit's own", description: 'the Astro project the site is built from' },
  },
  exit: '0 built; 1 a packet or the site failed (the step and the packets are named); 2 rehearsal inconclusive, no sandbox, an output folder that cannot be written or is being published by another build (PK318, PK319), a packet id the folder does not hold (PK114), or a wrong flag; 130/143 interrupted.',
});

export const serveModelSpec = defineCommand({
  name: 'serve-model',
  summary: 'serve the embedded scripted OpenAI-compatible endpoint on 127.0.0.1',
  usage: '[options]',
  description: `Serve the embedded scripted endpoint: an OpenAI-compatible API on 127.0.0.1
(POST /v1/chat/completions with usage, GET /v1/models). Model names:

  scripted:<packet>/<reply>   the text of packets/<packet>/replies/<reply>.md
  fault:<kind>                one failure each, for tests (listed below)
  flaky:<n>:<model>           HTTP 503 for the first n requests, then <model>
  fault:<kind>@<model>        a fault that changes a reply (slow, no-usage, length,
                              think, sse, gzip, finish-error, ...) around <model>'s

Stop it with Ctrl-C. It listens on 127.0.0.1 only.`,
  positionals: false,
  flags: {
    port: { type: 'integer', min: 0, max: 65535, value: 'N', default: 0, description: 'port on 127.0.0.1; 0 is any free port (the URL is printed)' },
    packets: SHARED_FLAGS.packets,
    'slow-ms': { type: 'integer', min: 0, value: 'N', default: 30000, description: 'delay of fault:slow, in milliseconds' },
  },
  exit: '0 on Ctrl-C, 2 a wrong flag or a port in use.',
});

export const mutateSpec = defineCommand({
  name: 'mutate',
  summary: 'let a model propose mutants of the sample; killed, survived, crashed, invalid',
  usage: '<id> [options]',
  description: `Let a model sabotage the sample, and show the tests' blind spots. The model is sent
the prompt's goal and the sample's source files (never the hidden tests, the protected files or
the failure catalog) and asked for N mutants, each one behavioural change with a one-line fault.
Each mutant is laid over the sample and judged in the sandbox with every test:

  killed    a test fails
  survived  every test passes: a blind spot of the tests (warning PK623)
  crashed   the run errors before judging behaviour (does not import, PK413,
            a hang PK411, a flood)
  invalid   not a mutant of the contract: a path outside the sample's sources,
            a changed def line of a function or class the tests import (read
            with Python's own parser in the sandbox), cosmetics only, an item
            with no code, or a run that forged its results

A repeat of an earlier mutant (the same code once blank lines and comments are set aside) is
counted once. The score is killed / (killed + survived). \`packet mutate <id> --adopt N --as
MODE-ID\` turns mutant N of the last report into mutants/MODE-ID/ and a failures.mdx entry to
fill in; check then names what is missing.`,
  positionals: true,
  flags: {
    count: { type: 'integer', min: 1, max: 20, value: 'N', default: 5, description: 'mutants to ask for (at most 20)' },
    out: {
      type: 'string',
      value: 'DIR',
      defaultText: 'out/mutate/<id>',
      description: 'run folder: report.json, mutation-report.json (the standard mutation-testing schema), mutation-report.html, and the receipts',
    },
    format: { type: 'string', value: 'F', default: 'text', choices: ['text', 'json'], description: 'text, or report.json on stdout' },
    packets: SHARED_FLAGS.packets,
    jobs: SHARED_FLAGS.jobs,
    timeout: SHARED_FLAGS.timeout,
    feedback: { type: 'integer', min: 0, max: 10, value: 'N', default: 1, description: 'ask again this many times after a reply that cannot be read; each such call is INCONCLUSIVE (PK622)' },
    unconfined: { type: 'boolean', default: false, description: "where bubblewrap is unusable, run the packet's own scripted mutants without isolation (never a live model's)" },
    endpoint: {
      type: 'string',
      value: 'URL',
      defaultText: '$LLM_ENDPOINT, then $OPENAI_BASE_URL; none: the embedded scripted endpoint, which serves replies/mutants.md as scripted:<id>/mutants',
      description: "an OpenAI-compatible API; the sample's sources are sent to it",
      group: 'The model',
    },
    model: { type: 'string', value: 'NAME', description: 'the model id (on the embedded endpoint: scripted:<id>/<reply> or a fault model)', group: 'The model' },
    'api-key-env': { type: 'string', value: 'VAR', default: 'OPENAI_API_KEY', description: 'the variable holding the key', group: 'The model' },
    ...budgetFlags('The model'),
    'max-reply-tokens': { type: 'integer', min: 1, value: 'N', defaultText: 'enough for N whole copies of the largest source file', description: 'the max_tokens each request sends', group: 'The model' },
    'attempt-timeout': { type: 'integer', min: 1, value: 'S', default: 120, description: 'seconds per model call attempt', group: 'The model' },
    adopt: { type: 'integer', min: 1, value: 'N', description: "the mutant's number in the last report (in --out)", group: 'Adopting a mutant as a failure mode' },
    as: { type: 'string', value: 'MODE-ID', description: "the new mode's id: writes mutants/MODE-ID/<file> and a failures.mdx entry to fill in", group: 'Adopting a mutant as a failure mode' },
  },
  exit: '0 every mutant classified (survivors included: they are findings, not errors) or adopted; 1 the packet cannot be mutated (sample red, no scripted mutants, nothing to mutate, not a take-home) or an adoption refused; 2 inconclusive (an endpoint down, no readable reply, a sandbox failure), a run folder, or the packet\'s folder for an adopted mutant, that cannot be written (PK628, PK629), or bad flags.',
});

export const gradeSpec = defineCommand({
  name: 'grade',
  summary: 'grade what candidates send back: scorecards and a summary',
  usage: '<id> <submission or sheet>... [options]',
  description: `Grade what candidates send back against packet <id>: each submission (a .zip, a .tar.gz
or a folder) is read safely, its cheap findings come first (deliverables, protected files, the
workspace contract, secrets, the packet version it names, the receipts), then the judge runs
every visible and held-out test in the sandbox, with the kit's canaries. Each submission gets a
scorecard (scorecard.json, scorecard.md) in <out>/<id>/<name>/; the batch gets summary.csv and
summary.json in <out>/<id>/. The reviewer scores the rest on the site's rubric page
(/packets/<id>/rubric/): import summary.json there to take the batch one submission after
another, or one scorecard.json. Labs and drills are graded from the answer sheets their pages
export (.json files, or folders of them): each sheet is read strictly and must name the
packet's version and digest; a lab's chosen code (hand edits included) runs through the same
judge in the sandbox, a drill's verdicts meet the key; the cards carry the answers beside the
key, and the reviewer scores them on /labs/<id>/score/ or /drills/<id>/score/. A packet with
variants: each submission is graded against the variant its README names (its Variant: and
Digest: lines must agree, PK580-PK583), and one that is red on its own variant is tried against
up to 3 others' tests: passing one is PK584, a no-hire (docs/grading.md). With --roster FILE
(the roster the hiring lead keeps of which variant was sent to whom), each submission is graded
against the variant its row names, never the one its README names: a README that names another
is PK585, a no-hire; a submission the roster does not name is not graded (PK586); a roster with
any problem grades nothing (PK587). Rows no submission matched are listed at the end. A lab's
answer sheets take the roster too (a sheet's name is its file name without .json): each is graded
against its row's variant, and a sheet whose digest or variant field is another variant's is
PK585. A drill takes no roster.`,
  positionals: true,
  flags: {
    packets: SHARED_FLAGS.packets,
    out: { type: 'string', value: 'DIR', default: 'out/grades', description: 'where grades go' },
    jobs: { ...SHARED_FLAGS.jobs, description: 'submissions graded at once' },
    timeout: SHARED_FLAGS.timeout,
    format: { type: 'string', value: 'F', default: 'text', choices: ['text', 'json'], description: 'the summary: lines, or JSON' },
    variants: {
      type: 'integer',
      min: 1,
      max: 100,
      value: 'N',
      defaultText: "the packet's variants.count",
      description: "how many variants were sent out (as packet build --variants N): a submission's own variant is read from its README, and the leak check looks among v1..vN (docs/grading.md)",
    },
    roster: {
      type: 'string',
      value: 'FILE',
      description:
        "which variant was sent to whom, the hiring lead's record: CSV (the header submission,variant, then a row per submission: alice,v3) or the same as JSON (docs/grading.md); each submission (a take-home's, or a lab's answer sheet) is graded against its row's variant",
    },
    unconfined: { type: 'boolean', default: false, description: 'where bubblewrap is unusable, run the submissions without isolation (only for code you trust; every card says so)' },
  },
  exit: '0 every submission was graded (whatever the scores); 1 some could not be (refused at intake, not on the roster, or the sandbox failed on it); 2 no sandbox, a bad flag, no such packet, a roster that cannot be used (PK587: nothing graded or written), or a grades folder, scorecard or summary that cannot be written (PK540-PK542: every scorecard that can be is written, and the summary marks the others).',
});

export const agreementSpec = defineCommand({
  name: 'agreement',
  summary: 'how far reviewers agree, from their exported scored sheets',
  usage: '<sheets or folders...> [options]',
  description: `Read the scored sheets several reviewers exported from the rubric page (files, or folders
searched for *.json) for the same submissions of one packet version, and report per rubric row
Krippendorff's alpha (ordinal) and, for two reviewers, Cohen's kappa with quadratic weights;
ICC(2,1) of the totals with its F-based interval; agreement on the decision; a bootstrap
interval for each; the rows under alpha or kappa 0.6 and totals under ICC 0.75 as too vague,
with the submissions the reviewers split on; and each submission's combined decision by the
rubric's \`combine\` rule. Sheets are matched by reviewer and by the submission's sha256 (the
candidate's name for a blank card). With --key, each reviewer against a calibration key.`,
  positionals: true,
  flags: {
    packets: SHARED_FLAGS.packets,
    key: { type: 'string', value: 'FILE', description: 'a calibration key (packet calibrate): each reviewer\'s decisions and sure rows against it' },
    json: { type: 'string', value: 'FILE', description: 'also write the report as JSON' },
    markdown: { type: 'string', value: 'FILE', description: 'also write the report as Markdown' },
    html: { type: 'string', value: 'FILE', description: 'also write the report as one HTML page with a chart' },
    seed: { type: 'integer', min: 0, value: 'N', default: 23, description: 'the seed of the bootstrap intervals' },
    resamples: { type: 'integer', min: 100, value: 'N', default: 1000, description: 'bootstrap resamples per interval' },
  },
  exit: '0 every row, the totals and every reviewer on the key agree well enough; 1 a row or the totals too vague, or a reviewer off the key; 2 a sheet or key that cannot be used (PK550-PK556: nothing is reported), a report file that cannot be written (PK557), or a bad flag.',
});

export const calibrateSpec = defineCommand({
  name: 'calibrate',
  summary: 'a calibration set: the sample and mutants as anonymous submissions, graded, and their key',
  usage: '<id> [options]',
  description: `Make the calibration set of take-home <id>, to calibrate a reviewer before a real candidate:
the sample solution and each failure mode's mutant, laid over the candidate zip as a candidate
sends it back, become anonymous zips (cal-01.zip ... in an order the seed shuffles) in
<out>/<id>/reviewer/submissions/, graded as packet grade grades them (scorecards and summary.json
in <out>/<id>/reviewer/grades/<id>/, to import on the rubric page as a queue). Their expected
decisions (the sample a hire, each mutant a no-hire, as the rehearsal's calibration decides them)
go in <out>/<id>/lead/calibration-key.json, for packet agreement --key; the reviewer gets
reviewer/ only. <out>/<id>/ must be empty or absent.`,
  positionals: true,
  flags: {
    packets: SHARED_FLAGS.packets,
    out: { type: 'string', value: 'DIR', default: 'out/calibration', description: 'where calibration sets go' },
    seed: { type: 'string', value: 'S', description: 'the order of the submissions (default: the packet\'s digest)' },
    jobs: { ...SHARED_FLAGS.jobs, description: 'submissions graded at once' },
    timeout: SHARED_FLAGS.timeout,
    unconfined: { type: 'boolean', default: false, description: 'where bubblewrap is unusable, run the sample and mutants without isolation (every card says so)' },
  },
  exit: '0 the set, its scorecards and its key written; 1 a submission ungraded or not decided as the rehearsal expects (PK571, PK572: no key is written); 2 no sandbox, a bad flag, no such packet, a lab or drill, or a folder that is not empty or cannot be written (PK570, PK573).',
});

export const mergeReportsSpec = defineCommand({
  name: 'merge-reports',
  summary: 'join the reports of sharded rehearsals into one',
  usage: '<reports...> [options]',
  description: `Join the reports of \`packet rehearse --shard i/n\` into the report one unsharded run would
have written: the same packets, checks, verdicts, defects, model runs and counts, and the same
exit code. Only timings and dates are the shards' own (the merged report's duration is its
longest shard's; each shard's is kept under "merged"). Refused, with the files named: reports of
different kit versions, sandboxes or interpreters; one packet with different digests, or twice;
a shard missing or given twice; different live models.`,
  positionals: true,
  flags: {
    out: { type: 'string', value: 'FILE', default: 'out/rehearsal/report.json', description: 'the merged report' },
  },
  exit: 'as packet rehearse for the merged report (0 fails closed, 1 packet defects, 2 anything inconclusive, or a merged report that cannot be written, PK492); 3 the reports cannot be merged (nothing is written).',
});

export const reportSpec = defineCommand({
  name: 'report',
  summary: 'a static HTML report of rehearsals, with history, and JUnit XML',
  usage: '<reports...> [options]',
  description: `A static HTML report of a rehearsal, built with the site's stack (Astro): the summary;
packet x check with times and codes (labs and drills in a table of their own checks); packet x
model with verdicts, calls, tokens and bytes; the findings to look at, each with its hint and a
link to the receipts, apart from the expected failures (starters red, mutants caught), counted
and folded; a history chart per packet over the reports in
--history (verdict, tokens and wall time by model), drawn as SVG, readable without JavaScript.
One index.html with relative links: it opens from file://. Several reports are merged first, as
\`packet merge-reports\` merges them.`,
  positionals: true,
  flags: {
    history: { type: 'string', value: 'DIR', description: 'earlier reports (every *.json under DIR that is one); the report shown is the last point of each chart' },
    out: {
      type: 'string',
      value: 'DIR',
      default: 'out/report',
      description: "the report's folder: index.html, the report shown as report.json (keep it for the next history), and receipts/",
    },
    junit: { type: 'string', value: 'FILE', description: 'also write the rehearsal as JUnit XML (a failure per packet defect, an error per inconclusive check or model run)' },
  },
  exit: '0 written; 1 the HTML build failed; 2 a report folder or JUnit file that cannot be written (PK492); 3 a report cannot be read or the reports cannot be merged.',
});

export const previewSpec = defineCommand({
  name: 'preview',
  summary: 'serve the built site on 127.0.0.1, as a static host would',
  usage: '[options]',
  description: `Serve a built site (\`packet build\` or \`npm run build\`) on 127.0.0.1, as a static host
serves it: /a/ is /a/index.html, /a redirects to /a/, and an unknown address gets the site's
404 page with status 404. Stop it with Ctrl-C.`,
  positionals: false,
  flags: {
    'out-dir': { type: 'string', value: 'DIR', default: 'dist', description: 'the built site' },
    port: { type: 'integer', min: 0, max: 65535, value: 'N', default: 4321, description: 'port on 127.0.0.1; 0 is any free port' },
  },
  exit: '0 on Ctrl-C, 1 no built site in DIR, 2 a wrong flag or a port in use.',
});

export const explainSpec = defineCommand({
  name: 'explain',
  summary: 'explain an error code or a frontmatter field',
  usage: '[CODE | NAME | FIELD | PART]',
  description: `Explain a diagnostic by its code or name (\`packet explain PK106\`, \`packet explain
UnknownField\`), or a frontmatter field by its path (\`packet explain budget.identicalErrors\`,
\`packet explain rows.auto\`, \`packet explain auto\`): its type, whether it is required, what
it means, its values and an example. A part's name (\`packet explain rubric\`) lists every field
of that part; \`packet explain fields\` lists them all. Without an argument, the whole error
reference.`,
  positionals: true,
  flags: {},
  exit: '0 found, 1 nothing by that name.',
});

/** Every command, in the order `packet --help`, the README and docs/cli.md list them. */
export const COMMAND_SPECS: readonly CommandSpec[] = [
  checkSpec,
  newSpec,
  explainSpec,
  rehearseSpec,
  mergeReportsSpec,
  reportSpec,
  buildSpec,
  previewSpec,
  gradeSpec,
  agreementSpec,
  calibrateSpec,
  mutateSpec,
  serveModelSpec,
];
