import { entry } from './entry.ts';

/**
 * The lint catalog (PK2xx): one entry per lint rule (PK201..PK217), then the lint engine's own
 * entries (PK290 and up). Never renumber or rename an entry; retire it instead.
 * Each rule's id (`prompt-length`) is in `src/lint/rules/`; the rule names its entry.
 */
export const LintErrors = {
  PromptTooLong: entry<{ words: number; max: number }>({
    code: 'PK201',
    name: 'PromptTooLong',
    title: 'Prompt too long',
    severity: 'error',
    message: ({ words, max }) =>
      `The prompt body is ${words} words, over the limit of ${max}; the words over it start here. A long prompt gives a model room to hide and a candidate a weekend of reading: a novel is a fail.`,
    hint: ({ max }) => `Cut the prompt to at most ${max} words: one goal, the hard limits, the stop rule, the deliverables, the test command.`,
  }),
  PromptNoHardLimits: entry<{ heading?: string }>({
    code: 'PK202',
    name: 'PromptNoHardLimits',
    title: 'Prompt has no hard limits',
    severity: 'warning',
    message: ({ heading }) =>
      heading
        ? `The section "${heading}" has no bullet list of limits. Limits a reviewer cannot point at one by one are not limits, and a model reads prose as a suggestion.`
        : 'The prompt has no list of hard limits (constraints, do-nots). Without them the task is unbounded, and a model will widen it until something breaks.',
    hint: () => 'Add a heading "Hard limits" followed by a bullet list: what must not change, what is off limits, what must never happen.',
  }),
  PromptNoStopRule: entry({
    code: 'PK203',
    name: 'PromptNoStopRule',
    title: 'Prompt has no stop rule',
    severity: 'warning',
    message: () =>
      'The prompt never says when to stop: no cap, no budget, no "stop after", "halt" or "give up". Without a stop condition an agent loops until the endpoint or the candidate runs out.',
    hint: () => 'Add a "Stop rule" section, e.g. "Stop after 8 model calls that do not change a test, then give up and write what you saw in NOTES.md."',
  }),
  DeliverableNotNamed: entry<{ deliverable: string }>({
    code: 'PK204',
    name: 'DeliverableNotNamed',
    title: 'Deliverable not named in the prompt',
    severity: 'error',
    message: ({ deliverable }) =>
      `The deliverable "${deliverable}" is never named in the prompt body. The candidate only reads the body, so they cannot hand in what it does not ask for.`,
    hint: ({ deliverable }) => `Name it in the body, exactly as written in the frontmatter, e.g. in a "Deliverables" list: \`${deliverable}\`.`,
  }),
  TestCommandNotShown: entry<{ command: string; inProse: boolean }>({
    code: 'PK205',
    name: 'TestCommandNotShown',
    title: 'Test command not shown',
    severity: 'error',
    message: ({ inProse }) =>
      inProse
        ? 'The test command appears in the prompt body only as prose, not in a code block or inline code, so it is easy to copy wrong.'
        : 'The frontmatter\'s test command never appears in the prompt body, so the candidate cannot run the tests they will be graded by.',
    hint: ({ command }) => `Show it, exactly as in "test:", in a \`\`\`bash block: ${command}`,
  }),
  CommercialModelName: entry<{ name: string; part: string }>({
    code: 'PK206',
    name: 'CommercialModelName',
    title: 'Named commercial model',
    severity: 'error',
    message: ({ name, part }) =>
      `The ${part} names the model "${name}". Names move and the pin should not: a packet that needs a named paid model is graded on the vendor, not the candidate.`,
    hint: () => 'Say "the model" or "the OpenAI-compatible endpoint" instead; rehearsals pick the model with --model.',
  }),
  SecretInPacket: entry<{ kind: string; scanner: string }>({
    code: 'PK207',
    name: 'SecretInPacket',
    title: 'Secret in a packet file',
    severity: 'error',
    message: ({ kind, scanner }) =>
      `The secret scanner (secretlint, rule "${scanner}") found a credential here (${kind}). A key in a packet ends up in the candidate zip, the site or a reviewer bundle.`,
    hint: () => 'Remove it and rotate it; read keys from the environment at run time. A fake key for a test must not look like a real one.',
  }),
  RubricRowsOutOfShape: entry<
    { problem: 'count'; count: number; min: number; max: number } | { problem: 'points'; row: string; points: number; maxPoints: number }
  >({
    code: 'PK208',
    name: 'RubricRowsOutOfShape',
    title: 'Rubric rows out of shape',
    severity: 'error',
    message: (p) =>
      p.problem === 'count'
        ? `The rubric has ${p.count} row${p.count === 1 ? '' : 's'}; a rubric that fits on a card has ${p.min} to ${p.max}. ${p.count < p.min ? 'Fewer rows cannot separate a hire from a no.' : 'More rows become fan fiction nobody scores in fifteen minutes.'}`
        : `The row "${p.row}" is worth ${p.points} points, more than ${p.maxPoints}. Reviewers cannot tell that many levels apart, so the extra points are noise.`,
    hint: (p) => (p.problem === 'count' ? `Merge or split rows to get ${p.min} to ${p.max}.` : `Set its max to at most ${p.maxPoints}.`),
  }),
  RubricLevelMissing: entry<{ row: string; missing: string }>({
    code: 'PK209',
    name: 'RubricLevelMissing',
    title: 'Rubric row without its end descriptors',
    severity: 'error',
    message: ({ row, missing }) =>
      `The row "${row}" has no descriptor for score ${missing}. Without words for the lowest and the highest score, two reviewers give the same work different points.`,
    hint: ({ missing }) => `Add ${missing.split(' and ').map((s) => `"${s}: <what that looks like>"`).join(' and ')} under levels.`,
  }),
  RubricOverTime: entry<{ problem: 'rows'; needed: number; minutes: number; rows: number } | { problem: 'card'; minutes: number; max: number }>({
    code: 'PK210',
    name: 'RubricOverTime',
    title: 'Rubric takes too long to score',
    severity: 'error',
    message: (p) =>
      p.problem === 'rows'
        ? `Scoring the ${p.rows} rows takes ${p.needed} minutes, more than the rubric's ${p.minutes}. A card that cannot be scored in its time gets skimmed.`
        : `The rubric asks for ${p.minutes} minutes; a human scores a packet in at most ${p.max}.`,
    hint: (p) =>
      p.problem === 'rows'
        ? 'Drop a row, lower the rows\' "minutes", or raise the rubric\'s "minutes" (at most 15).'
        : `Set "minutes" to at most ${p.max} and cut rows until they fit.`,
  }),
  HireBarMisplaced: entry<{ problem: 'veto'; row: string; atMost: number; max: number } | { problem: 'too-low'; hireBar: number; total: number }>({
    code: 'PK211',
    name: 'HireBarMisplaced',
    title: 'Hire bar out of reach or too low',
    severity: 'error',
    message: (p) =>
      p.problem === 'veto'
        ? `The veto on "${p.row}" fires at ${p.atMost} or below, and that row only goes to ${p.max}: every submission is vetoed, so the hire bar is out of reach.`
        : `The hire bar is ${p.hireBar} of ${p.total}, below half the total: a submission can fail most of the card and still be a hire.`,
    hint: (p) => (p.problem === 'veto' ? `Set the veto's atMost below ${p.max}, usually 0.` : `Set hireBar between ${Math.ceil(p.total / 2)} and ${p.total}.`),
  }),
  TooFewFailureModes: entry<{ count: number; min: number }>({
    code: 'PK212',
    name: 'TooFewFailureModes',
    title: 'Too few failure modes',
    severity: 'error',
    message: ({ count, min }) =>
      `The failure catalog names ${count} mode${count === 1 ? '' : 's'}; it needs at least ${min}. One failure mode is an anecdote, and the rehearsal proves nothing about the others.`,
    hint: () => 'Add another named way the task dies, with a signal, a mutant and the rubric row it caps.',
  }),
  SignalUnusable: entry<
    | { mode: string; problem: 'compile'; reason: string }
    | { mode: string; problem: 'empty' }
    | { mode: string; problem: 'starter'; source: 'files' | 'diff' | 'ledger'; file: string; line: number }
  >({
    code: 'PK213',
    name: 'SignalUnusable',
    title: 'Failure signal cannot tell',
    severity: 'error',
    message: (p) =>
      p.problem === 'compile'
        ? `The signal of "${p.mode}" is not a valid regular expression: ${p.reason}. Grading would crash instead of grepping.`
        : p.problem === 'empty'
          ? `The signal of "${p.mode}" matches the empty string, so it matches every submission and tells nothing.`
          : p.source === 'diff'
            ? `The diff signal of "${p.mode}" matches a line the unchanged starter already has (${p.file}, line ${p.line}). A diff signal greps the lines a submission adds, so it fires on a submission that only moves or reformats that line.`
            : p.source === 'ledger'
              ? `The ledger signal of "${p.mode}" already matches the starter's own receipts file (${p.file}, line ${p.line}), so it fires on a submission that hands that file in unchanged.`
              : `The signal of "${p.mode}" already matches the unchanged starter (${p.file}, line ${p.line}), so it fires on a submission that did nothing.`,
    hint: (p) =>
      p.problem === 'compile'
        ? 'Fix the pattern (JavaScript syntax; in YAML double quotes, write a backslash as "\\\\").'
        : p.problem === 'empty'
          ? 'Make the pattern require at least one character, e.g. replace "x*" with "x+".'
          : p.source === 'diff'
            ? 'Make the pattern specific to what the mutant adds: a line the starter does not have, so moving or reformatting the starter\'s own lines cannot match it.'
            : p.source === 'ledger'
              ? 'Make the pattern match what the failing run writes to its receipts, not what the starter\'s usage.jsonl or ledger.json already holds.'
              : 'Make the pattern specific to the failure: something the mutant adds, not something the starter has.',
  }),
  FailureNotNarrated: entry<{ mode: string; title: string; problem: 'no-section' | 'no-id' }>({
    code: 'PK214',
    name: 'FailureNotNarrated',
    title: 'Failure mode not described',
    severity: 'warning',
    message: ({ mode, title, problem }) =>
      problem === 'no-section'
        ? `The failure mode "${mode}" has no section in the body (a heading "${title}" with text under it). A mode nobody describes is one a reviewer will not recognise.`
        : `The section "${title}" never mentions the id "${mode}", so grepping the catalog for the id finds the frontmatter but not the story.`,
    hint: ({ mode, title, problem }) =>
      problem === 'no-section'
        ? `Add "## ${title}" and a paragraph on how the task dies this way (mention "${mode}") and what the reviewer sees.`
        : `Mention "${mode}" in that section.`,
  }),
  SampleNotLabeled: entry<{ label: string }>({
    code: 'PK215',
    name: 'SampleNotLabeled',
    title: 'Sample not labeled as a sample',
    severity: 'error',
    message: ({ label }) =>
      `The sample's label "${label}" does not say it is a sample. An unlabeled answer reads as the answer, and candidates copy its shape instead of thinking.`,
    hint: () => 'Put the word "sample" in the label, e.g. "Sample solution (one acceptable answer, not the only one)".',
  }),
  CodeFenceNoLang: entry<{ fenced: boolean }>({
    code: 'PK216',
    name: 'CodeFenceNoLang',
    title: 'Code block without a language',
    severity: 'warning',
    message: ({ fenced }) =>
      fenced
        ? 'This code block names no language, so it renders unhighlighted and a reader cannot tell a command from output.'
        : 'This indented code block has no language; indented blocks cannot carry one.',
    hint: ({ fenced }) => (fenced ? 'Name the language after the fence: ```bash, ```python, ```text.' : 'Turn it into a fenced block with a language, e.g. ```text.'),
  }),
  MdxSyntax: entry<{ reason: string }>({
    code: 'PK217',
    name: 'MdxSyntax',
    title: 'Body is not valid MDX',
    severity: 'warning',
    message: ({ reason }) =>
      `The body is not valid MDX: ${reason}. It was linted as plain Markdown, but MDX tools (the editor, the site) will choke on it.`,
    hint: () => 'Escape a literal "{" or "<" as "\\{" or "\\<" (or put it in `code`), and write comments as {/* ... */}, not <!-- ... -->.',
  }),
  LintConfigInvalid: entry<{ reason: string }>({
    code: 'PK290',
    name: 'LintConfigInvalid',
    title: 'Invalid lint configuration',
    severity: 'error',
    message: ({ reason }) => `The lint configuration is not valid: ${reason}. The rule keeps its default setting.`,
    hint: () =>
      'Write { "lint": { "rules": { "<rule-id>": "error" | "warning" | "off" | ["error", { ...options }] } } } (in a packet\'s lint.json: { "rules": { ... } }).',
  }),
  LintDirectiveUnknownRule: entry<{ rule: string; known: string }>({
    code: 'PK291',
    name: 'LintDirectiveUnknownRule',
    title: 'Lint directive names no rule',
    severity: 'warning',
    message: ({ rule, known }) => `The lint directive names the rule "${rule}", which does not exist, so it disables nothing. Rules: ${known}.`,
    hint: () => 'Fix the rule id, or remove the directive.',
  }),
  // Labs and drills (PK250-PK269).
  LabReadmeMissing: entry({
    code: 'PK250',
    name: 'LabReadmeMissing',
    title: 'A lab without a README',
    severity: 'error',
    message: () => 'The lab\'s starter has no README.md. The README holds the rules the candidate builds to and judges each suggestion by.',
    hint: () => 'Add starter/README.md with the feature\'s rules, one per line or bullet.',
  }),
  LabKeyOneSided: entry<{ choice: string }>({
    code: 'PK251',
    name: 'LabKeyOneSided',
    title: 'A lab whose key makes the same choice every time',
    severity: 'error',
    message: ({ choice }) =>
      `The key says "${choice}" for every suggestion. An assistant that is always right, or always wrong, tests no judgement: a candidate who clicks the same button every time scores full marks.`,
    hint: () => 'Make some suggestions right and some wrong in the ways real assistants are.',
  }),
  DrillVerdictsOneSided: entry<{ verdict: string }>({
    code: 'PK252',
    name: 'DrillVerdictsOneSided',
    title: 'A drill whose key gives the same verdict every time',
    severity: 'error',
    message: ({ verdict }) => `The key says "${verdict}" for every diff, so a reviewer who gives that verdict without reading scores full marks on the verdicts.`,
    hint: () => 'Mix diffs to accept, to accept with a change and to reject.',
  }),
  DrillDiffNoContext: entry<{ diff: string }>({
    code: 'PK253',
    name: 'DrillDiffNoContext',
    title: 'A diff without unchanged lines',
    severity: 'warning',
    message: ({ diff }) => `The diff "${diff}" shows no unchanged line, so the reviewer cannot see where the change sits.`,
    hint: () => 'Keep a few unchanged lines (prefixed with a space) around the change.',
  }),
  KeyReasonShort: entry<{ what: string; words: number; min: number }>({
    code: 'PK254',
    name: 'KeyReasonShort',
    title: 'A key reason too short to name a consequence',
    severity: 'warning',
    message: ({ what, words, min }) => `The ${what} is ${words} words; under ${min} it rarely names what would go wrong, which is what the reviewer compares the candidate's reason with.`,
    hint: () => 'Say what happens in production if the wrong version ships.',
  }),
  ReviewerHeadingShips: entry<{ heading: string; part: string; ships: string }>({
    code: 'PK255',
    name: 'ReviewerHeadingShips',
    title: 'A heading for reviewers that candidates read',
    severity: 'warning',
    message: ({ heading, part, ships }) =>
      `The heading "${heading}" in ${part} reads as meant for reviewers, but its section ships to candidates (${ships}): only a \`Reviewer notes\` heading of rubric.mdx keeps a section out.`,
    hint: ({ part }) =>
      part === 'rubric.mdx'
        ? 'If a candidate must not read it, name the heading `## Reviewer notes`; if they may, name it for what it says.'
        : 'Move it under `## Reviewer notes` in rubric.mdx, which only the reviewer bundle holds, or name the heading for what the candidate should read.',
  }),
  HandInMissing: entry<{ kind: string }>({
    code: 'PK256',
    name: 'HandInMissing',
    title: 'A lab or drill that does not say where the answer sheet goes',
    severity: 'warning',
    message: ({ kind }) =>
      `This ${kind} has no \`handIn\` in prompt.mdx, so the candidate who exports the answer sheet is only told to send it to "the person who sent you this packet".`,
    hint: () => 'Add `handIn: { to: "hiring@example.com" }` to the prompt\'s frontmatter: the hiring lead\'s address or a link, as text (an optional `note` adds a sentence, e.g. a subject line).',
  }),
} as const satisfies Record<string, ReturnType<typeof entry<any>>>;
