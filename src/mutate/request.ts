/**
 * What a model is sent to propose mutants: the instruction (N mutants, one behavioural change
 * each, the same signatures, no compile errors, no cosmetic changes, a one-line fault, the reply
 * format), the prompt's goal, and the sample's source files. Never the hidden tests, the
 * protected files or the failure catalog: the caller passes only `sampleSources`.
 */
import type { ChatMessage } from '../llm/client.ts';

/** The most mutants one run asks for. */
export const MAX_COUNT = 20;

/** The instruction, as the system message states it. */
export function instruction(count: number): string {
  return [
    'You are testing a test suite by sabotaging the code it tests (mutation testing).',
    `Propose ${count} mutant${count === 1 ? '' : 's'} of the source files below. Each mutant must:`,
    '- change exactly one behaviour: a condition, a boundary, a branch, an order, an argument, a value;',
    '  the kind of slip a careful person makes, such as a guard moved from the top of a loop to the bottom,',
    '  or two arguments of the same type swapped;',
    '- keep every function and method with the same name and the same parameters;',
    '- still import and run: no syntax errors, no new imports of modules that may not exist;',
    '- not be cosmetic: renaming, reformatting, comments or docstrings alone do not count;',
    '- state the fault it plants in one line.',
    'Each mutant changes one file. Different mutants must change different things.',
    '',
    'Answer with only a JSON array, bare or in one ```json block:',
    '[{"fault": "one line: what is now wrong", "path": "the file\'s path as given", "code": "the whole new file"}]',
    'For a long file you may give "diff" (a unified diff against the file as given) instead of "code".',
  ].join('\n');
}

/** One file as a fenced block with its path, the fence longer than any backtick run inside. */
export function sourceBlock(p: string, text: string, lang: string): string {
  const runs = text.match(/`{3,}/g) ?? [];
  const fence = '`'.repeat(Math.max(3, ...runs.map((r) => r.length + 1)));
  return `${fence}${lang} path=${p}\n${text}${text.endsWith('\n') || !text ? '' : '\n'}${fence}`;
}

/** What a request is made of. */
export interface MutationRequest {
  /** The prompt's title. */
  title: string;
  /** The prompt body (PROMPT.md). */
  goal: string;
  /** The prompt's language, for the fences. */
  language: string;
  /** The sample's source files, by path. */
  sources: ReadonlyMap<string, string>;
  count: number;
}

/** The first request: the instruction, then the goal and the sources. */
export function mutationMessages(r: MutationRequest): ChatMessage[] {
  const files = [...r.sources].map(([p, t]) => sourceBlock(p, t, r.language)).join('\n\n');
  const user = [
    `The task these files solve: ${r.title}`,
    '',
    r.goal.trim(),
    '',
    'The source files (a correct solution; paths relative to the repository root):',
    '',
    files,
    '',
    `Propose ${r.count} mutant${r.count === 1 ? '' : 's'} as a JSON array.`,
  ].join('\n');
  return [
    { role: 'system', content: instruction(r.count) },
    { role: 'user', content: user },
  ];
}

/** The turn after a reply that could not be read. */
export function malformedFeedback(reason: string): string {
  return `Your reply could not be read as a JSON array of mutants: ${reason}. Answer again with only the JSON array: [{"fault": "...", "path": "...", "code": "..."}].`;
}
