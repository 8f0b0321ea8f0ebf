import { describe, expect, it } from 'vitest';
import { checkReceipts, codeDigest, receiptPaths, type ReceiptRules } from '../../../src/judge/receipts.ts';

/** The receipts a candidate hands in, checked against their lines, the packet's caps and the code. */
const rules: ReceiptRules = { dir: 'receipts', budget: { modelCalls: 4, tokens: 1000, wallSeconds: 600, identicalErrors: 3 }, allow: ['src/**', 'NOTES.md', 'receipts/**'] };
const code = new Map([
  ['src/agent.py', 'print(1)\n'],
  ['NOTES.md', 'notes\n'],
]);
const line = (p: number | null, c: number | null, extra: Record<string, unknown> = {}) => JSON.stringify({ ts: '2026-11-30T10:00:00Z', model: 'm', prompt_tokens: p, completion_tokens: c, status: 200, error: null, ...extra });

function files(o: { usage?: string[]; ledger?: Record<string, unknown> | string; giveUp?: Record<string, unknown>; code?: Map<string, string> } = {}) {
  const c = o.code ?? code;
  const out = new Map<string, string>(c);
  if (o.usage) out.set('receipts/usage.jsonl', `${o.usage.join('\n')}\n`);
  if (o.ledger !== undefined) out.set('receipts/ledger.json', typeof o.ledger === 'string' ? o.ledger : JSON.stringify(o.ledger));
  if (o.giveUp) out.set('receipts/give_up.json', JSON.stringify(o.giveUp));
  return out;
}

const honest = () => ({ usage: [line(100, 20), line(150, 30)], ledger: { calls: 2, prompt_tokens: 250, completion_tokens: 50, tokens: 300, code_digest: codeDigest(code, rules) } });
const codes = (fs: { code: string }[]) => fs.map((f) => f.code);

describe('receipts', () => {
  it('accept honest receipts', () => {
    expect(checkReceipts(files(honest()), rules)).toEqual([]);
  });

  it('name each missing receipt', () => {
    expect(checkReceipts(files(), rules).map((f) => f.file)).toEqual(['receipts/usage.jsonl', 'receipts/ledger.json']);
    expect(codes(checkReceipts(files({ usage: [line(1, 1)] }), rules))).toEqual(['PK520']);
  });

  it('name a line that is not a receipt, at its line', () => {
    const r = checkReceipts(files({ ...honest(), usage: [line(100, 20), 'not json', line(-1, 3)] }), rules);
    expect(r.map((f) => [f.code, f.line])).toEqual([
      ['PK521', 2],
      ['PK521', 3],
      ['PK522', undefined],
      ['PK522', undefined],
    ]);
  });

  it('accept a ledger within 5% of its lines, and name one further apart', () => {
    const within = honest();
    within.ledger.tokens = 314;
    expect(checkReceipts(files(within), rules)).toEqual([]);
    const apart = honest();
    apart.ledger.tokens = 330;
    const r = checkReceipts(files(apart), rules);
    expect(codes(r)).toEqual(['PK522']);
    expect(r[0]!.message).toContain('tokens 330; the lines of usage.jsonl add up to 300');
  });

  it('keep unknown usage unknown: a total claimed over a line without usage disagrees', () => {
    const h = honest();
    h.usage.push(line(null, null, { error: 'rate-limit', status: 429 }));
    h.ledger.calls = 3;
    expect(checkReceipts(files(h), rules)).toEqual([]);
    h.usage.pop();
    h.usage.push(line(null, null, { error: 'timeout', status: null }));
    h.ledger.calls = 3;
    expect(codes(checkReceipts(files(h), rules))).toEqual(['PK522']);
    (h.ledger as Record<string, unknown>).tokens = null;
    expect(checkReceipts(files(h), rules)).toEqual([]);
  });

  it('name code that changed after the ledger was written', () => {
    const h = honest();
    const changed = new Map([...code, ['src/agent.py', 'print(2)\n']]);
    const r = checkReceipts(files({ ...h, code: changed }), rules);
    expect(codes(r)).toEqual(['PK526']);
    expect(codes(checkReceipts(files({ ...h, ledger: { ...h.ledger, code_digest: undefined } }), rules))).toEqual(['PK521']);
  });

  it('leave files the contract does not allow, and the receipts, out of the code digest', () => {
    const d = codeDigest(code, rules);
    expect(codeDigest(new Map([...code, ['tests/test_x.py', 'x'], ['receipts/usage.jsonl', 'y']]), rules)).toBe(d);
    expect(codeDigest(new Map([...code, ['src/new.py', 'z']]), rules)).not.toBe(d);
  });

  it('name an overspent budget and a cap reached without give_up.json', () => {
    const usage = Array.from({ length: 5 }, () => line(100, 10));
    const r = checkReceipts(files({ usage, ledger: { calls: 5, tokens: 550, code_digest: codeDigest(code, rules) } }), rules);
    expect(codes(r)).toEqual(['PK523', 'PK524']);
    expect(r[0]!.message).toContain('5 model calls against a cap of 4');
    const tokens = checkReceipts(files({ usage: [line(900, 200)], ledger: { calls: 1, tokens: 1100, code_digest: codeDigest(code, rules) } }), rules);
    expect(codes(tokens)).toEqual(['PK523', 'PK524']);
  });

  it('accept a give-up at a cap that was reached, and name one that names no cap reached', () => {
    const usage = Array.from({ length: 4 }, () => line(100, 10));
    const ledger = { calls: 4, tokens: 440, code_digest: codeDigest(code, rules) };
    expect(checkReceipts(files({ usage, ledger, giveUp: { reason: 'model-calls' } }), rules)).toEqual([]);
    expect(codes(checkReceipts(files({ usage, ledger, giveUp: { reason: 'tokens' } }), rules))).toEqual(['PK525']);
    expect(checkReceipts(files({ usage, ledger, giveUp: { reason: 'tokens', estimate: 600 } }), rules)).toEqual([]);
    expect(codes(checkReceipts(files({ usage, ledger, giveUp: { reason: 'because' } }), rules))).toEqual(['PK525']);
    const errors = Array.from({ length: 3 }, () => line(null, null, { error: 'server-error' }));
    expect(checkReceipts(files({ usage: errors, ledger: { calls: 3, tokens: null, code_digest: codeDigest(code, rules) }, giveUp: { reason: 'identical-errors' } }), rules)).toEqual([]);
    const late = [line(10, 1), line(10, 1, { ts: '2026-11-30T10:09:50Z' })];
    expect(checkReceipts(files({ usage: late, ledger: { calls: 2, tokens: 22, code_digest: codeDigest(code, rules) }, giveUp: { reason: 'wall-clock' } }), rules)).toEqual([]);
    expect(codes(checkReceipts(files({ usage: [line(10, 1)], ledger: { calls: 1, tokens: 11, code_digest: codeDigest(code, rules) }, giveUp: { reason: 'wall-clock' } }), rules))).toEqual(['PK525']);
  });

  it('find the receipts at the workspace root with dir "."', () => {
    expect(receiptPaths('.')).toEqual({ usage: 'usage.jsonl', ledger: 'ledger.json', giveUp: 'give_up.json' });
    expect(receiptPaths('out/')).toEqual({ usage: 'out/usage.jsonl', ledger: 'out/ledger.json', giveUp: 'out/give_up.json' });
  });

  it('refuse a ledger that is not JSON', () => {
    expect(codes(checkReceipts(files({ ...honest(), ledger: '{' }), rules))).toEqual(['PK521']);
  });
});
