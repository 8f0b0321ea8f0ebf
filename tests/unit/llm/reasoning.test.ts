import { createTwoFilesPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { readCompletion } from '../../../src/llm/error-class.ts';
import { splitReasoning } from '../../../src/llm/reasoning.ts';
import { parseReply } from '../../../src/llm/reply-parse.ts';

const APP = 'src/app.py';
const base = new Map([[APP, 'def f():\n    return 1\n']]);
const right = 'def f():\n    return 2\n';
const wrong = 'def f():\n    return 3\n';
const block = (text: string) => `\`\`\`python path=${APP}\n${text}\`\`\`\n`;
const diff = (to: string) => `\`\`\`diff\n${createTwoFilesPatch(`a/${APP}`, `b/${APP}`, base.get(APP)!, to)}\`\`\`\n`;

/** What the client does with a reply's content: keep the answer, then parse it. */
const applied = (content: string) => {
  const r = parseReply(splitReasoning(content).answer, base);
  return r.ok ? r.files.get(APP) : `rejected: ${r.reason}`;
};

describe('the answer, not the thinking', () => {
  it('a right draft in <think> followed by a wrong final diff applies the wrong diff (it used to PASS)', () => {
    const reply = `<think>\nLet me draft it whole first:\n${block(right)}Hmm, a diff is shorter.\n</think>\n\n${diff(wrong)}`;
    // Before: the path= block inside <think> won over the diff.
    const unsplit = parseReply(reply, base);
    expect(unsplit.ok && unsplit.files.get(APP)).toBe(right);
    expect(applied(reply)).toBe(wrong);
  });

  it('a wrong draft in <think> followed by a right final diff applies the right diff (it used to be CAUGHT)', () => {
    const reply = `<think>\nA first try:\n${block(wrong)}No, that returns 3.\n</think>\n${diff(right)}`;
    expect(applied(reply)).toBe(right);
  });

  it('a code fence left open inside <think> cannot swallow the answer', () => {
    const reply = `<think>\nSketch:\n\`\`\`python\ndef f(:\n    # never closed\n</think>\n\n${block(right)}`;
    const unsplit = parseReply(reply, base);
    // Before: the open fence ran to the answer's closing fence and hid the answer's block.
    expect(unsplit.ok).toBe(false);
    expect(applied(reply)).toBe(right);
  });

  it('takes everything before a lone closing tag as reasoning (the template opened the block)', () => {
    expect(splitReasoning(`I think the fix is ${'`'}return 2${'`'}.\n\`\`\`python path=x.py\nnope\n</think>\nThe answer.`)).toEqual({
      answer: '\nThe answer.',
      reasoning: 'I think the fix is `return 2`.\n```python path=x.py\nnope',
      unclosed: false,
    });
  });

  it('treats a block never closed as reasoning to the end, and <thinking> like <think>', () => {
    expect(splitReasoning(`${block(right)}<think>\nmore ideas ${block(wrong)}`)).toEqual({ answer: block(right).trimEnd(), reasoning: `more ideas ${block(wrong)}`.trim(), unclosed: true });
    expect(splitReasoning('<THINKING>hm</THINKING>answer')).toEqual({ answer: 'answer', reasoning: 'hm', unclosed: false });
  });

  it('leaves a tag inside the answer\'s own code block alone, and an empty block is still reasoning', () => {
    const file = '```python path=tags.py\nOPEN = "<think>"\n<think>\n```\n';
    expect(splitReasoning(file)).toEqual({ answer: file, reasoning: null, unclosed: false });
    expect(splitReasoning('<think>\n\n</think>\n\nanswer')).toEqual({ answer: '\nanswer', reasoning: '', unclosed: false });
    expect(splitReasoning('no reasoning here')).toEqual({ answer: 'no reasoning here', reasoning: null, unclosed: false });
  });
});

describe('reasoning in the completion', () => {
  const body = (message: Record<string, unknown>, finish = 'stop') => ({ choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }], usage: { prompt_tokens: 1, completion_tokens: 2 } });

  it('keeps reasoning fields and thinking parts apart from the answer', () => {
    expect(readCompletion(body({ content: 'answer', reasoning_content: 'draft ```python path=x.py' }))).toMatchObject({ ok: true, completion: { content: 'answer', reasoning: { sources: ['reasoning-field'], text: 'draft ```python path=x.py' } } });
    expect(readCompletion(body({ content: 'answer', reasoning: 'why' }))).toMatchObject({ ok: true, completion: { reasoning: { sources: ['reasoning-field'] } } });
    expect(readCompletion(body({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'hm' }] }, { type: 'text', text: 'ans' }, { type: 'text', text: 'wer' }] }))).toMatchObject({
      ok: true,
      completion: { content: 'answer', reasoning: { sources: ['content-parts'], text: 'hm' } },
    });
    expect(readCompletion(body({ content: '<think>a</think>b' }))).toMatchObject({ ok: true, completion: { content: 'b', reasoning: { sources: ['think-tags'], text: 'a' } } });
  });

  it('calls a reply with reasoning and no answer reasoning-only', () => {
    expect(readCompletion(body({ content: '<think>\nstill thinking when it stopped' }))).toMatchObject({ ok: false, error: 'reasoning-only' });
    expect(readCompletion(body({ content: '', reasoning_content: 'all of it here' }))).toMatchObject({ ok: false, error: 'reasoning-only' });
    expect(readCompletion(body({ content: null }))).toMatchObject({ ok: false, error: 'empty-choices' });
  });
});

describe('two answers for one path', () => {
  it('applies the whole file, ignores the diff for it, and says so', () => {
    const r = parseReply(`${block(right)}\n${diff(wrong)}`, base);
    expect(r).toMatchObject({ ok: true, format: 'files', notes: [`${APP} is given as a whole file and in a diff; the whole file was applied, the diff for it was not`] });
    expect(r.ok && r.files.get(APP)).toBe(right);
  });

  it('applies a diff for another file next to whole files, and says so', () => {
    const two = new Map([...base, ['src/b.py', 'x = 1\n']]);
    const other = `\`\`\`diff\n${createTwoFilesPatch('a/src/b.py', 'b/src/b.py', 'x = 1\n', 'x = 2\n')}\`\`\`\n`;
    const r = parseReply(`${block(right)}${other}`, two);
    expect(r).toMatchObject({ ok: true, format: 'files+diff', notes: ['the diff was applied to src/b.py, next to the whole files'] });
    expect(r.ok && Object.fromEntries(r.files)).toEqual({ [APP]: right, 'src/b.py': 'x = 2\n' });
  });

  it('does not read a patch file given whole as a diff', () => {
    const patch = createTwoFilesPatch(`a/${APP}`, `b/${APP}`, base.get(APP)!, wrong);
    const r = parseReply(`\`\`\`text path=fix.patch\n${patch}\`\`\`\n`, base);
    expect(r).toMatchObject({ ok: true, format: 'files', notes: [] });
    expect(r.ok && [...r.files.keys()]).toEqual(['fix.patch']);
  });
});
