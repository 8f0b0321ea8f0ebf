import { defineCommand, type CommandSpec, type FlagSpec } from './flags.ts';

/**
 * Every command's synopsis, description, flags and exit codes: the one source of parseArgs'
 * options, of each `--help` and of the README's CLI reference. Data only, so `packet --help`
 * and the docs read it without loading a command.
 */

/** Flags several commands share, defined once. */
export const SHARED_FLAGS = {
  packets: { type: 'string', value: 'DIR', default: 'packets', description: 'the packets folder' },
  jobs: { type: 'string', value: 'N', defaultText: 'number of cores', description: 'sandbox runs at once' },
  timeout: { type: 'string', value: 'S', default: '30', description: 'seconds per test run in the sandbox' },
  unconfined: {
    type: 'boolean',
    default: false,
    description: "where bubblewrap is unusable, run the packets' own trees without isolation (never for submissions or model replies)",
  },
  report: { type: 'string', value: 'FILE', default: 'out/rehearsal/report.json', description: 'the JSON rehearsal report' },
  config: { type: 'string', value: 'FILE', defaultText: 'packet-kit.config.json, if present', description: 'the lint settings' },
} as const satisfies Record<string, FlagSpec>;

/** The heading of rehearse's live-model flags. */
const LIVE_MODEL = 'A live model, on top (one run per packet, receipts in <out>/<packet>/)';

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
  description: `Scaffold packets/<id>/ with the four parts and the starter, sample, hidden, mutants
and replies trees of a small working packet, ready to edit. The new packet passes \`packet
check\` and fails closed; every field is explained by \`packet explain prompt\` (and rubric,
sample, failures).`,
  positionals: true,
  flags: {
    packets: SHARED_FLAGS.packets,
    title: { type: 'string', value: 'TEXT', defaultText: 'the id in words', description: "the packet's title" },
  },
  exit: '0 created, 1 the folder exists, 2 a wrong id or flag.',
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
    'no-cache': { type: 'boolean', default: false, description: 'rehearse even unchanged packets' },
    timeout: SHARED_FLAGS.timeout,
    unconfined: SHARED_FLAGS.unconfined,
    endpoint: {
      type: 'string',
      value: 'URL',
      defaultText: '$LLM_ENDPOINT, then $OPENAI_BASE_URL; none: the embedded scripted endpoint',
      description: 'an OpenAI-compatible API',
      group: LIVE_MODEL,
    },
    model: {
      type: 'string',
      value: 'NAME',
      description: "the model id; {packet} is replaced by each packet's id (e.g. scripted:{packet}/sample, fault:500 on the embedded endpoint)",
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
    'max-calls': { type: 'string', value: 'N', description: "lower the packet's budget.modelCalls (flags never raise a budget)", group: LIVE_MODEL },
    'max-tokens': { type: 'string', value: 'N', description: "lower the packet's budget.tokens", group: LIVE_MODEL },
    'max-seconds': { type: 'string', value: 'S', description: "lower the packet's budget.wallSeconds", group: LIVE_MODEL },
    'max-identical-errors': { type: 'string', value: 'N', description: "lower the packet's budget.identicalErrors", group: LIVE_MODEL },
    feedback: { type: 'string', value: 'N', default: '2', description: 'feedback turns with the failing visible tests', group: LIVE_MODEL },
    stall: { type: 'string', value: 'K', default: '2', description: 'stop after K answers that change no test result', group: LIVE_MODEL },
    'attempt-timeout': { type: 'string', value: 'S', default: '120', description: 'seconds per model call attempt', group: LIVE_MODEL },
  },
  notes: 'Environment: PACKET_KIT_BWRAP=PATH uses that bwrap instead of the one on PATH.',
  exit: '0 every packet fails closed and every model run ended PASS, CAUGHT, FALSE-GREEN or GAVE-UP; 1 packet defects; 2 anything inconclusive (a dead endpoint included) or a wrong flag.',
});

export const buildSpec = defineCommand({
  name: 'build',
  summary: 'check, rehearse, zips, site and reviewer bundles, all or nothing',
  usage: '[options]',
  description: `Build everything that ships, or nothing:
  1. check      validate and lint every packet; an error stops the build
  2. rehearse   the offline rehearsal (cached); a defect or an inconclusive
                packet stops the build
  3. zips       the candidate zips <id>-<version>.zip (deterministic; refused
                files and secrets stop the build) and packets.json
  4. site       the Astro site, and its search index
  5. canary     every secret line of every packet is searched in the whole
                site, zips opened; a leak stops the build
  6. reviewer   the reviewer bundles (all trees, KEY.md, the rehearsal result)
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
    unconfined: SHARED_FLAGS.unconfined,
    jobs: SHARED_FLAGS.jobs,
    timeout: SHARED_FLAGS.timeout,
    report: SHARED_FLAGS.report,
    config: SHARED_FLAGS.config,
    'site-root': { type: 'string', value: 'DIR', defaultText: "packet-kit's own", description: 'the Astro project the site is built from' },
  },
  exit: '0 built; 1 a packet or the site failed (the step and the packets are named); 2 rehearsal inconclusive, no sandbox, or a wrong flag; 130/143 interrupted.',
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
  fault:<kind>@<model>        slow, no-usage and length faults around a reply

Stop it with Ctrl-C. It listens on 127.0.0.1 only.`,
  positionals: false,
  flags: {
    port: { type: 'string', value: 'N', default: '0', description: 'port on 127.0.0.1; 0 is any free port (the URL is printed)' },
    packets: SHARED_FLAGS.packets,
    'slow-ms': { type: 'string', value: 'N', default: '30000', description: 'delay of fault:slow, in milliseconds' },
  },
  exit: '0 on Ctrl-C, 2 a wrong flag or a port in use.',
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
    port: { type: 'string', value: 'N', default: '4321', description: 'port on 127.0.0.1; 0 is any free port' },
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

/** Every command, in the order `packet --help` and the README list them. */
export const COMMAND_SPECS: readonly CommandSpec[] = [checkSpec, newSpec, explainSpec, rehearseSpec, buildSpec, previewSpec, serveModelSpec];
