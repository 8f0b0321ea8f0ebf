import { entry } from './entry.ts';

/** The model rehearsal catalog (PK6xx). Never renumber or rename an entry. */
export const ModelErrors = {
  // Entries are added here with entry<{ ...params }>({ code, name, title, severity, message, hint }).
  EndpointInvalid: entry<{ source: string; reason: string }>({
    code: 'PK601',
    name: 'EndpointInvalid',
    title: 'Endpoint is not a usable URL',
    severity: 'error',
    message: ({ source, reason }) => `The model endpoint given by ${source} cannot be used: ${reason}. The URL itself is not printed, since it may carry a key.`,
    hint: () => 'Pass an http(s) URL of an OpenAI-compatible API, e.g. --endpoint http://127.0.0.1:8080/v1 (the path usually ends in /v1).',
  }),
  ModelMissing: entry<{ source: string }>({
    code: 'PK602',
    name: 'ModelMissing',
    title: 'Endpoint without a model',
    severity: 'error',
    message: ({ source }) => `A model endpoint is set (by ${source}) but no model is named, so there is nothing to call.`,
    hint: () => 'Add --model NAME (the id the endpoint lists under /v1/models), or unset the endpoint to rehearse the scripted replies only.',
  }),
  ApiKeyMissing: entry<{ variable: string }>({
    code: 'PK603',
    name: 'ApiKeyMissing',
    title: 'No API key in the environment',
    severity: 'warning',
    message: ({ variable }) => `The environment variable ${variable} is not set, so the endpoint is called without a key. Keyless local servers accept that; hosted ones answer 401 (error class "auth").`,
    hint: ({ variable }) => `Export the key as ${variable}, or name another variable with --api-key-env VAR. Keys are read from the environment only, never from a flag, and never printed or written.`,
  }),
  BudgetFlagIgnored: entry<{ detail: string }>({
    code: 'PK604',
    name: 'BudgetFlagIgnored',
    title: 'A budget flag above the packet\'s cap',
    severity: 'warning',
    message: ({ detail }) => `A budget flag asks for more than a packet allows and is ignored for it: ${detail}.`,
    hint: () => 'Budget flags (--max-calls, --max-tokens, --max-seconds, --max-identical-errors) can only lower a packet\'s budget; raise it in the packet\'s prompt.mdx instead.',
  }),
  ServePortUnavailable: entry<{ port: number; reason: string }>({
    code: 'PK605',
    name: 'ServePortUnavailable',
    title: 'Cannot listen on the port',
    severity: 'error',
    message: ({ port, reason }) => `The scripted endpoint cannot listen on 127.0.0.1:${port}: ${reason}.`,
    hint: () => 'Pick another port with --port N, or --port 0 for any free one (the URL is printed).',
  }),
  ModelRunInconclusive: entry<{ packet: string; reason: string }>({
    code: 'PK606',
    name: 'ModelRunInconclusive',
    title: 'A model run could not be judged',
    severity: 'error',
    message: ({ packet, reason }) =>
      `The model run on "${packet}" is INCONCLUSIVE: ${reason}. An inconclusive run is never counted as a pass; the rehearsal exits 2.`,
    hint: () => 'Check the endpoint is up (curl its /v1/models), the model id and the key; usage.jsonl names the error class of every attempt.',
  }),
  UnconfinedModelRefused: entry<{ host: string }>({
    code: 'PK607',
    name: 'UnconfinedModelRefused',
    title: 'Model replies refused without a sandbox',
    severity: 'error',
    message: ({ host }) =>
      `The sandbox is unconfined (--unconfined), and the replies of the model at ${host} are untrusted code, so they are not run. Only the packets' own trees and scripted replies run unconfined.`,
    hint: () => 'Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) and drop --unconfined to rehearse against a live model.',
  }),
  EndpointFailed: entry<{ packet: string; error: string; meaning: string; server: string; fix: string }>({
    code: 'PK608',
    name: 'EndpointFailed',
    title: 'The endpoint failed a model call',
    severity: 'error',
    message: ({ packet, error, meaning, server }) =>
      `A model call of the run on "${packet}" failed for good: ${error} (${meaning}). ${server} The reply of a failed call is never applied; the attempts are in usage.jsonl, each with its class, status and message.`,
    hint: ({ fix }) => `${fix}`,
  }),
  ServedModelDiffers: entry<{ packet: string; asked: string; served: string }>({
    code: 'PK609',
    name: 'ServedModelDiffers',
    title: 'Another model answered',
    severity: 'warning',
    message: ({ packet, asked, served }) =>
      `The run on "${packet}" asked for the model "${asked}" and the server says "${served}" answered. Routers, aliases and servers with one loaded model do this; the verdict is about the model that answered.`,
    hint: () => 'Name the served model with --model to pin it, if the endpoint offers it; usage.jsonl records served_model on every line where it differs.',
  }),
  TokenBudgetTooSmall: entry<{ packet: string; detail: string }>({
    code: 'PK610',
    name: 'TokenBudgetTooSmall',
    title: 'The token budget cannot afford a call',
    severity: 'error',
    message: ({ packet, detail }) =>
      `The model run on "${packet}" made no call: ${detail}. A call that could cross the token cap is not made, so the run is INCONCLUSIVE (give_up.json names the cap).`,
    hint: () => 'Raise the packet\'s budget.tokens, lower --max-reply-tokens (the max_tokens each request sends), or send fewer context files (prompt.mdx `context`).',
  }),
  MutantsReplyMissing: entry<{ packet: string }>({
    code: 'PK620',
    name: 'MutantsReplyMissing',
    title: 'No scripted mutants for the offline run',
    severity: 'error',
    message: ({ packet }) =>
      `The packet "${packet}" has no replies/mutants.md, so the embedded endpoint has no mutants to serve and no model was called.`,
    hint: () => 'Write replies/mutants.md (a JSON array of {"fault", "path", "code"}, as a model would answer), or ask a model: --endpoint URL --model NAME.',
  }),
  MutateSampleRed: entry<{ packet: string; reason: string }>({
    code: 'PK621',
    name: 'MutateSampleRed',
    title: 'The sample must pass before it is mutated',
    severity: 'error',
    message: ({ packet, reason }) =>
      `The sample of "${packet}" cannot be mutated: ${reason}. A mutant of a sample that is not green says nothing about the tests, so no model was called.`,
    hint: ({ packet }) => `Run \`npx packet rehearse ${packet}\` and make its sample check pass first.`,
  }),
  MutantReplyMalformed: entry<{ packet: string; turn: number; reason: string }>({
    code: 'PK622',
    name: 'MutantReplyMalformed',
    title: 'A mutants reply cannot be read',
    severity: 'error',
    message: ({ packet, turn, reason }) =>
      `Call ${turn} of the mutation run on "${packet}" is INCONCLUSIVE: ${reason}. A reply that cannot be read is never guessed at; its mutants are not judged.`,
    hint: () =>
      'The reply must be a JSON array [{"fault": "...", "path": "...", "code": "..."}], bare or in a fenced json block (an item may give "diff" instead of "code"); the call is in usage.jsonl. --feedback N asks again that many times with the reason.',
  }),
  ProposedMutantSurvived: entry<{ packet: string; n: number; fault: string; path: string }>({
    code: 'PK623',
    name: 'ProposedMutantSurvived',
    title: 'A proposed mutant survives every test',
    severity: 'warning',
    message: ({ packet, n, fault, path }) => `Mutant #${n} of "${packet}" survives every test, visible and held out: ${fault} (${path}). No test checks this behaviour.`,
    hint: ({ packet, n }) =>
      `Add a test that fails on it (its diff is in mutation-report.html), adopt it as a failure mode to fill in (\`npx packet mutate ${packet} --adopt ${n} --as <mode-id>\`), or, when it changes nothing a caller could see, leave it and say why.`,
  }),
  MutateInconclusive: entry<{ packet: string; reason: string }>({
    code: 'PK624',
    name: 'MutateInconclusive',
    title: 'A mutation run could not be judged',
    severity: 'error',
    message: ({ packet, reason }) =>
      `The mutation run on "${packet}" is INCONCLUSIVE: ${reason}. Nothing that could not be judged is classified; the command exits 2.`,
    hint: () => 'Check the endpoint (curl its /v1/models), the model id, the key and the budget; usage.jsonl names the error class of every attempt, give_up.json the cap that stopped it.',
  }),
  MutationReportMissing: entry<{ file: string; packet: string }>({
    code: 'PK625',
    name: 'MutationReportMissing',
    title: 'No mutation report to adopt from',
    severity: 'error',
    message: ({ file, packet }) => `There is no mutation report of "${packet}" at ${file}, so there is no mutant to adopt.`,
    hint: ({ packet }) => `Run \`npx packet mutate ${packet}\` first, with the same --out as the adoption.`,
  }),
  AdoptRefused: entry<{ packet: string; n: number; reason: string; fix: string }>({
    code: 'PK626',
    name: 'AdoptRefused',
    title: 'A mutant cannot be adopted',
    severity: 'error',
    message: ({ packet, n, reason }) => `Mutant #${n} of "${packet}" cannot be adopted: ${reason}.`,
    hint: ({ fix }) => fix,
  }),
  MutateNothing: entry<{ packet: string; reason: string }>({
    code: 'PK627',
    name: 'MutateNothing',
    title: 'Nothing to mutate',
    severity: 'error',
    message: ({ packet, reason }) => `The packet "${packet}" has nothing a model could mutate: ${reason}.`,
    hint: () => 'Mutants change the sample\'s source files: code in the prompt\'s language, laid over the starter, outside the protected paths and the tests.',
  }),
  MutateOutUnwritable: entry<{ folder: string; reason: string; fix: string }>({
    code: 'PK628',
    name: 'MutateOutUnwritable',
    title: 'The mutation run\'s folder cannot be written',
    severity: 'error',
    message: ({ folder, reason }) =>
      `The mutation run's folder ${folder} cannot be written: ${reason}. Its reports (mutation-report.json and .html, usage.jsonl) would be lost, so the run stops there and is not classified; the command exits 2.`,
    hint: ({ fix }) => `${fix[0]!.toUpperCase()}${fix.slice(1)} (--out DIR chooses the folder), then run it again.`,
  }),
  AdoptUnwritable: entry<{ packet: string; n: number; folder: string; reason: string; fix: string }>({
    code: 'PK629',
    name: 'AdoptUnwritable',
    title: 'The packet\'s folder cannot take the adopted mutant',
    severity: 'error',
    message: ({ packet, n, folder, reason }) =>
      `Mutant #${n} of "${packet}" cannot be written into ${folder}: ${reason}. Nothing of it is left there (failures.mdx is as it was); the command exits 2.`,
    hint: ({ fix }) => `${fix[0]!.toUpperCase()}${fix.slice(1)} (the packet's own folder, under --packets DIR), then adopt it again.`,
  }),
} as const satisfies Record<string, ReturnType<typeof entry<any>>>;
