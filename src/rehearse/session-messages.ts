/**
 * What a model is sent: a system message with the reply format, the packet's PROMPT.md, and the
 * starter files the packet names as context. Only the public parts of a packet are read here
 * (the prompt body and starter/); the sample, hidden tests, mutants, replies and the failure
 * catalog never are, so they cannot reach a request.
 */
import picomatch from 'picomatch';
import type { CodePacket } from '../packets/packet.ts';
import type { ChatMessage } from '../llm/client.ts';

/** The reply format, as the system message states it. */
export const SYSTEM_MESSAGE = [
  'You are working on a take-home task in a small code repository.',
  'Answer with the files you change, each as a whole file in a fenced code block whose info string names',
  'its path relative to the repository root, for example:',
  '',
  '```python path=src/example.py',
  '# the whole new file',
  '```',
  '',
  'You may instead answer with one unified diff against the files you were given.',
  'Do not change the tests; they are restored before the tests run. Keep the change as small as the task allows.',
].join('\n');

/** Starter paths sent as context: the prompt's `context`, else every starter file that is not protected. */
export function contextPaths(packet: CodePacket): string[] {
  const listed = packet.prompt.data.context;
  if (listed?.length) return listed.filter((p) => packet.trees.starter.includes(p));
  const globs = packet.prompt.data.protected;
  const isProtected = globs.length ? picomatch(globs, { dot: true }) : () => false;
  return packet.trees.starter.filter((p) => !isProtected(p));
}

const LANGS: Record<string, string> = { py: 'python', js: 'javascript', mjs: 'javascript', ts: 'typescript', json: 'json', md: 'markdown', toml: 'toml', yaml: 'yaml', yml: 'yaml', sh: 'bash', txt: 'text' };

/** One file as a fenced block with its path, the fence longer than any backtick run inside. */
export function fileBlock(p: string, text: string): string {
  const ext = p.includes('.') ? p.slice(p.lastIndexOf('.') + 1).toLowerCase() : '';
  const runs = text.match(/`{3,}/g) ?? [];
  const fence = '`'.repeat(Math.max(3, ...runs.map((r) => r.length + 1)));
  return `${fence}${LANGS[ext] ?? 'text'} path=${p}\n${text}${text.endsWith('\n') || !text ? '' : '\n'}${fence}`;
}

/** The first turn: system message, then PROMPT.md and the context files. */
export function firstMessages(packet: CodePacket, context: ReadonlyMap<string, string>): ChatMessage[] {
  const files = [...context].map(([p, t]) => fileBlock(p, t)).join('\n\n');
  const user = `PROMPT.md\n\n${packet.prompt.body.trim()}\n\nThe files you are given (paths relative to the repository root):\n\n${files}\n\nThe tests run with: \`${packet.prompt.data.test}\``;
  return [
    { role: 'system', content: SYSTEM_MESSAGE },
    { role: 'user', content: user },
  ];
}

/**
 * The most of the visible tests' output a feedback turn sends: the last 60 lines, and of those
 * the last 4,000 characters (about 1,000 tokens). A test run that prints 72 KB sends its tail,
 * with a line saying how much was cut; the summary and the last failures are at the end.
 */
export const FEEDBACK_LIMITS = { lines: 60, chars: 4000 } as const;

/** The tail of a test run's output, within {@link FEEDBACK_LIMITS}, with a note of what was cut. */
export function feedbackTail(output: string, limits: { lines: number; chars: number } = FEEDBACK_LIMITS): string {
  const text = output.replace(/\r\n?/g, '\n').trimEnd();
  let lines = text.split('\n');
  if (lines.length > limits.lines) lines = lines.slice(-limits.lines);
  let tail = lines.join('\n');
  if (tail.length > limits.chars) {
    tail = tail.slice(-limits.chars);
    // Start on a whole line when one begins inside the kept part.
    const nl = tail.indexOf('\n');
    if (nl >= 0 && nl < tail.length - 1) tail = tail.slice(nl + 1);
  }
  const cut = text.length - tail.length;
  return cut > 0 ? `[the first ${cut} characters of the output are cut; the last ${tail.length} follow]\n${tail}` : tail;
}

/** A feedback turn: the visible tests' output (never the hidden tests'), capped by {@link feedbackTail}, or why the reply could not be applied. */
export function feedbackMessage(kind: { tests: string } | { rejected: string }): string {
  if ('rejected' in kind) {
    return `Your reply could not be applied: ${kind.rejected}. Answer again with whole files in fenced blocks whose info string has path=..., or one unified diff.`;
  }
  const tests = feedbackTail(kind.tests);
  const runs = tests.match(/`{3,}/g) ?? [];
  const fence = '`'.repeat(Math.max(3, ...runs.map((r) => r.length + 1)));
  const output = `${fence}text\n${tests}\n${fence}`;
  return `The visible tests fail with your change. Their output:\n\n${output}\n\nAnswer with the corrected files, whole, in the same format.`;
}
