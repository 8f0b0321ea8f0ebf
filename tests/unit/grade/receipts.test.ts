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

const said = (fs: { code: string; file?: string; line?: number; message: string }[]) => fs.map((f) => [f.code, f.file ?? null, f.line ?? null, f.message]);
const digest = () => codeDigest(code, rules);

describe('receipts: where they are', () => {
  it('takes an empty dir for the root, and drops trailing slashes however many', () => {
    expect(receiptPaths('')).toEqual({ usage: 'usage.jsonl', ledger: 'ledger.json', giveUp: 'give_up.json' });
    expect(receiptPaths('out/run/')).toEqual({ usage: 'out/run/usage.jsonl', ledger: 'out/run/ledger.json', giveUp: 'out/run/give_up.json' });
    expect(receiptPaths('out//')).toEqual({ usage: 'out/usage.jsonl', ledger: 'out/ledger.json', giveUp: 'out/give_up.json' });
  });

  it('counts a receipt the kit would not read as missing', () => {
    const f = new Map<string, string | { unsafe: string }>(files(honest()));
    f.set('receipts/usage.jsonl', { unsafe: 'a symlink' });
    f.set('receipts/ledger.json', { unsafe: 'a FIFO' });
    expect(said(checkReceipts(f, rules))).toMatchInlineSnapshot(`
      [
        [
          "PK520",
          "receipts/usage.jsonl",
          null,
          "The prompt asks for receipts, and receipts/usage.jsonl is missing.",
        ],
        [
          "PK520",
          "receipts/ledger.json",
          null,
          "The prompt asks for receipts, and receipts/ledger.json is missing.",
        ],
      ]
    `);
  });
});

describe('receipts: the code digest', () => {
  it('does not depend on the order files were read in, and covers dotfiles the contract allows', () => {
    const reversed = new Map([...code].reverse());
    expect(codeDigest(reversed, rules)).toBe(digest());
    expect(codeDigest(new Map([...code, ['src/.env.py', 'x']]), rules)).not.toBe(digest());
  });

  it('takes a file it could not read as empty', () => {
    const unread = new Map<string, string | { unsafe: string }>([...code, ['src/link.py', { unsafe: 'a symlink' }]]);
    expect(codeDigest(unread, rules)).toBe(codeDigest(new Map([...code, ['src/link.py', '']]), rules));
  });
});

describe('receipts: each line of usage.jsonl', () => {
  it('skips blank lines, and names every line that is not a receipt, with its reason', () => {
    const usage = [line(100, 20), '   ', '[1, 2]', 'null', '"text"', '{', line(1.5, 3), line(100, '12' as never), line(150, 30)];
    const r = checkReceipts(files({ usage, ledger: { calls: 2, tokens: 300, code_digest: digest() } }), rules);
    expect(said(r)).toMatchInlineSnapshot(`
      [
        [
          "PK521",
          "receipts/usage.jsonl",
          3,
          "receipts/usage.jsonl:3 is not a receipt in the documented format: not a JSON object.",
        ],
        [
          "PK521",
          "receipts/usage.jsonl",
          4,
          "receipts/usage.jsonl:4 is not a receipt in the documented format: not a JSON object.",
        ],
        [
          "PK521",
          "receipts/usage.jsonl",
          5,
          "receipts/usage.jsonl:5 is not a receipt in the documented format: not a JSON object.",
        ],
        [
          "PK521",
          "receipts/usage.jsonl",
          6,
          "receipts/usage.jsonl:6 is not a receipt in the documented format: not a JSON object.",
        ],
        [
          "PK521",
          "receipts/usage.jsonl",
          7,
          "receipts/usage.jsonl:7 is not a receipt in the documented format: prompt_tokens and completion_tokens must be whole numbers or null.",
        ],
        [
          "PK521",
          "receipts/usage.jsonl",
          8,
          "receipts/usage.jsonl:8 is not a receipt in the documented format: prompt_tokens and completion_tokens must be whole numbers or null.",
        ],
      ]
    `);
  });

  it('counts a line that reports only part of its usage as unknown, and a complete 4xx answer as spending nothing', () => {
    const partial = [line(100, 20), line(150, null)];
    expect(codes(checkReceipts(files({ usage: partial, ledger: { calls: 2, tokens: 270, code_digest: digest() } }), rules))).toEqual(['PK522']);
    expect(checkReceipts(files({ usage: partial, ledger: { calls: 2, tokens: null, code_digest: digest() } }), rules)).toEqual([]);
    const refused = [line(100, 20), line(null, null, { status: 400, error: 'bad-request' })];
    expect(checkReceipts(files({ usage: refused, ledger: { calls: 2, tokens: 120, code_digest: digest() } }), rules)).toEqual([]);
    const redirect = [line(100, 20), line(null, null, { status: 399 })];
    expect(codes(checkReceipts(files({ usage: redirect, ledger: { calls: 2, tokens: 120, code_digest: digest() } }), rules))).toEqual(['PK522']);
  });
});

describe('receipts: the ledger', () => {
  it('accepts a total exactly 5% apart, and names one a token further', () => {
    const usage = [line(80, 20)];
    expect(checkReceipts(files({ usage, ledger: { calls: 1, tokens: 95, code_digest: digest() } }), rules)).toEqual([]);
    expect(codes(checkReceipts(files({ usage, ledger: { calls: 1, tokens: 94, code_digest: digest() } }), rules))).toEqual(['PK522']);
  });

  it('checks only the totals it states, and names each one that disagrees, in words', () => {
    const usage = [line(100, 20), line(150, 30)];
    expect(checkReceipts(files({ usage, ledger: { calls: 2, code_digest: digest() } }), rules)).toEqual([]);
    const r = checkReceipts(files({ usage, ledger: { calls: 3, tokens: '300', code_digest: digest() } }), rules);
    expect(said(r)).toMatchInlineSnapshot(`
      [
        [
          "PK522",
          "receipts/ledger.json",
          null,
          "ledger.json claims calls 3; the lines of usage.jsonl add up to 2 (more than 5% apart). A total that does not come from its lines is a claim, not a receipt.",
        ],
        [
          "PK522",
          "receipts/ledger.json",
          null,
          "ledger.json claims tokens 300; the lines of usage.jsonl add up to 300 (more than 5% apart). A total that does not come from its lines is a claim, not a receipt.",
        ],
      ]
    `);
    const unknown = [line(100, 20), line(null, null, { status: null, error: 'timeout' })];
    expect(said(checkReceipts(files({ usage: unknown, ledger: { calls: 2, tokens: 120, code_digest: digest() } }), rules))).toMatchInlineSnapshot(`
      [
        [
          "PK522",
          "receipts/ledger.json",
          null,
          "ledger.json claims tokens 120; the lines of usage.jsonl add up to null (more than 5% apart). A total that does not come from its lines is a claim, not a receipt.",
        ],
      ]
    `);
    expect(codes(checkReceipts(files({ usage, ledger: { calls: 2, tokens: null, code_digest: digest() } }), rules))).toEqual(['PK522']);
  });

  it('names a ledger that is not a JSON object once, and one that has no calls or no code digest', () => {
    const usage = [line(100, 20)];
    expect(said(checkReceipts(files({ usage, ledger: '[1]' }), rules))).toMatchInlineSnapshot(`
      [
        [
          "PK521",
          "receipts/ledger.json",
          1,
          "receipts/ledger.json:1 is not a receipt in the documented format: not a JSON object.",
        ],
      ]
    `);
    for (const text of ['{', 'null', '5', '"ledger"', '[]']) {
      expect(said(checkReceipts(files({ usage, ledger: text }), rules)), text).toEqual([['PK521', 'receipts/ledger.json', 1, 'receipts/ledger.json:1 is not a receipt in the documented format: not a JSON object.']]);
    }
    expect(said(checkReceipts(files({ usage, ledger: { tokens: 120, code_digest: digest() } }), rules))).toMatchInlineSnapshot(`
      [
        [
          "PK521",
          "receipts/ledger.json",
          1,
          "receipts/ledger.json:1 is not a receipt in the documented format: it has no "calls".",
        ],
      ]
    `);
    expect(said(checkReceipts(files({ usage, ledger: { calls: 1, tokens: 120, code_digest: 42 } }), rules))).toMatchInlineSnapshot(`
      [
        [
          "PK521",
          "receipts/ledger.json",
          1,
          "receipts/ledger.json:1 is not a receipt in the documented format: it has no "code_digest".",
        ],
      ]
    `);
  });

  it('accepts the code digest in capitals, and names the one that differs', () => {
    const usage = [line(100, 20)];
    expect(checkReceipts(files({ usage, ledger: { calls: 1, tokens: 120, code_digest: digest().toUpperCase() } }), rules)).toEqual([]);
    expect(said(checkReceipts(files({ usage, ledger: { calls: 1, tokens: 120, code_digest: 'f'.repeat(64) } }), rules))).toMatchInlineSnapshot(`
      [
        [
          "PK526",
          "receipts/ledger.json",
          null,
          "ledger.json names the code it was written for (code_digest ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff), but the submitted code has digest 6d85492a044fdcfd6b0a01dde088adc22eb4648642ea80331547c485a4f46ce2: the code changed after the receipts were written.",
        ],
      ]
    `);
  });
});

describe('receipts: the caps', () => {
  const ledgerFor = (calls: number, tokens: number | null) => ({ calls, tokens, code_digest: digest() });

  it('names spending over a cap, not spending up to it', () => {
    expect(checkReceipts(files({ usage: [line(900, 100)], ledger: ledgerFor(1, 1000), giveUp: { reason: 'tokens' } }), rules)).toEqual([]);
    expect(said(checkReceipts(files({ usage: [line(900, 101)], ledger: ledgerFor(1, 1001), giveUp: { reason: 'tokens' } }), rules))).toMatchInlineSnapshot(`
      [
        [
          "PK523",
          "receipts/usage.jsonl",
          null,
          "The receipts show 1001 tokens against a cap of 1000. A cap is checked before each call, not after.",
        ],
      ]
    `);
  });

  it('names a cap reached without give_up.json: the token cap at its limit', () => {
    expect(said(checkReceipts(files({ usage: [line(900, 100)], ledger: ledgerFor(1, 1000) }), rules))).toMatchInlineSnapshot(`
      [
        [
          "PK524",
          "receipts/usage.jsonl",
          null,
          "The receipts reach the tokens cap (1000 of 1000) and there is no give_up.json: the run stopped without saying why.",
        ],
      ]
    `);
    expect(checkReceipts(files({ usage: [line(900, 99)], ledger: ledgerFor(1, 999) }), rules)).toEqual([]);
  });

  it('accepts a token give-up when the next call\'s estimate would cross the cap, not when it would only reach it', () => {
    const usage = [line(400, 100)];
    expect(checkReceipts(files({ usage, ledger: ledgerFor(1, 500), giveUp: { reason: 'tokens', estimate: 501 } }), rules)).toEqual([]);
    expect(codes(checkReceipts(files({ usage, ledger: ledgerFor(1, 500), giveUp: { reason: 'tokens', estimate: 500 } }), rules))).toEqual(['PK525']);
    expect(codes(checkReceipts(files({ usage, ledger: ledgerFor(1, 500), giveUp: { reason: 'tokens', estimate: '900' } }), rules))).toEqual(['PK525']);
  });

  it('measures the wall clock between the first and the last stamped line', () => {
    const at = (t: string) => line(10, 1, { ts: `2026-11-30T${t}Z` });
    const wall = (usage: string[]) => codes(checkReceipts(files({ usage, ledger: ledgerFor(usage.length, 11 * usage.length), giveUp: { reason: 'wall-clock' } }), rules));
    expect(wall([at('10:00:00'), at('10:09:00')])).toEqual([]);
    expect(wall([at('10:00:00'), at('10:08:59')])).toEqual(['PK525']);
    expect(wall([at('10:00:00'), at('10:01:40')])).toEqual(['PK525']);
    expect(wall([at('10:09:00'), line(10, 1, { ts: undefined }), line(10, 1, { ts: 2026 }), at('10:00:00')])).toEqual([]);
    expect(wall([line(10, 1, { ts: 1 }), at('10:00:00')])).toEqual(['PK525']);
  });

  it('counts only the last run of identical errors', () => {
    const err = (error: unknown) => line(null, null, { error, status: 500 });
    const stop = (usage: string[]) => codes(checkReceipts(files({ usage, ledger: ledgerFor(usage.length, 0), giveUp: { reason: 'identical-errors' } }), rules));
    expect(stop([err('server-error'), err('server-error'), err('server-error')])).toEqual([]);
    expect(stop([err('timeout'), err('server-error'), err('server-error')])).toEqual(['PK525']);
    expect(stop([err('server-error'), err('server-error'), err('server-error'), line(0, 0)])).toEqual(['PK525']);
    expect(stop([err(''), err(''), err('')])).toEqual(['PK525']);
    expect(stop([err({ code: 500 }), err({ code: 500 }), err({ code: 500 })])).toEqual(['PK525']);
  });

  it('names a give-up whose reason is missing or not a reason', () => {
    const usage = [line(10, 1)];
    expect(said(checkReceipts(files({ usage, ledger: ledgerFor(1, 11), giveUp: {} }), rules))).toMatchInlineSnapshot(`
      [
        [
          "PK525",
          "receipts/give_up.json",
          null,
          "give_up.json says the run stopped for "(none)", but the receipts reach no such cap.",
        ],
      ]
    `);
    expect(said(checkReceipts(files({ usage, ledger: ledgerFor(1, 11), giveUp: { reason: 7 } }), rules))).toMatchInlineSnapshot(`
      [
        [
          "PK525",
          "receipts/give_up.json",
          null,
          "give_up.json says the run stopped for "(none)", but the receipts reach no such cap.",
        ],
      ]
    `);
  });

  it('names a give_up.json that is not a JSON object', () => {
    const usage = [line(10, 1)];
    const f = files({ usage, ledger: ledgerFor(1, 11) });
    for (const text of ['{', '[]', 'null', '"tokens"']) {
      f.set('receipts/give_up.json', text);
      expect(said(checkReceipts(f, rules)), text).toEqual([['PK521', 'receipts/give_up.json', 1, expect.stringContaining('not a JSON object')]]);
    }
  });
});

describe('receipts: every finding, where it points', () => {
  const ledgerFor = (calls: number, tokens: number | null) => ({ calls, tokens, code_digest: digest() });

  it('names spending over the model-call cap, and the cap reached without give_up.json, at usage.jsonl', () => {
    const five = Array.from({ length: 5 }, () => line(10, 1));
    expect(said(checkReceipts(files({ usage: five, ledger: ledgerFor(5, 55) }), rules))).toEqual([
      ['PK523', 'receipts/usage.jsonl', null, 'The receipts show 5 model calls against a cap of 4. A cap is checked before each call, not after.'],
      ['PK524', 'receipts/usage.jsonl', null, 'The receipts reach the model-calls cap (5 of 4) and there is no give_up.json: the run stopped without saying why.'],
    ]);
    const four = five.slice(1);
    expect(said(checkReceipts(files({ usage: four, ledger: ledgerFor(4, 44) }), rules))).toEqual([
      ['PK524', 'receipts/usage.jsonl', null, 'The receipts reach the model-calls cap (4 of 4) and there is no give_up.json: the run stopped without saying why.'],
    ]);
    expect(checkReceipts(files({ usage: four, ledger: ledgerFor(4, 44), giveUp: { reason: 'model-calls' } }), rules)).toEqual([]);
  });

  it('files every finding under the receipts', () => {
    const all = [
      checkReceipts(files(), rules),
      checkReceipts(files({ usage: ['{', line(-1, 0), line(600, 600), line(10, 10), line(1, 1), line(1, 1)], ledger: { calls: 1, tokens: 5 } }), rules),
      checkReceipts(files({ usage: [line(1, 1)], ledger: '[]', giveUp: { reason: 'tokens' } }), rules),
      checkReceipts(files({ usage: [line(1, 1)], ledger: { calls: 1, tokens: 2, code_digest: 'f00' } }), rules),
      checkReceipts(files({ usage: [line(600, 400)], ledger: { calls: 1, tokens: 1000, code_digest: digest() } }), rules),
      checkReceipts(files({ usage: Array.from({ length: 5 }, () => line(1, 1)), ledger: { tokens: 10, code_digest: digest() }, giveUp: { reason: 'model-calls' } }), rules),
    ].flat();
    expect(all.filter((f) => f.code === 'PK523').map((f) => f.message)).toEqual([expect.stringContaining('1224 tokens'), expect.stringContaining('5 model calls')]);
    expect(all.filter((f) => f.message.includes('no "calls"'))).toHaveLength(1);
    expect(new Set(all.map((f) => f.code))).toEqual(new Set(['PK520', 'PK521', 'PK522', 'PK523', 'PK524', 'PK525', 'PK526']));
    expect(all.map((f) => f.kind)).toEqual(all.map(() => 'receipts'));
    const gaveUp = files({ usage: [line(1, 1)], ledger: ledgerFor(1, 2) });
    gaveUp.set('receipts/give_up.json', '[]');
    expect(checkReceipts(gaveUp, rules).map((f) => f.kind)).toEqual(['receipts']);
  });

  it('reads error and status only when they have their types', () => {
    const err = (error: unknown) => line(null, null, { error, status: 500 });
    const stop = (usage: string[]) => codes(checkReceipts(files({ usage, ledger: ledgerFor(usage.length, 0), giveUp: { reason: 'identical-errors' } }), rules));
    expect(stop([err(500), err(500), err(500)])).toEqual(['PK525']);
    const many = { ...rules, budget: { ...rules.budget, modelCalls: 10 } };
    const five = [err('timeout'), err('rate-limit'), err('server-error'), err('server-error'), err('server-error')];
    expect(checkReceipts(files({ usage: five, ledger: ledgerFor(5, 0), giveUp: { reason: 'identical-errors' } }), many)).toEqual([]);
    const textStatus = [line(100, 20), line(null, null, { status: '429' })];
    expect(codes(checkReceipts(files({ usage: textStatus, ledger: ledgerFor(2, 120) }), rules))).toEqual(['PK522']);
  });

  it('counts a line without its prompt tokens as unknown usage, and a total of 0 claimed over unknown usage as wrong', () => {
    const noPrompt = [line(100, 20), line(null, 30)];
    expect(codes(checkReceipts(files({ usage: noPrompt, ledger: ledgerFor(2, 150) }), rules))).toEqual(['PK522']);
    expect(checkReceipts(files({ usage: noPrompt, ledger: ledgerFor(2, null) }), rules)).toEqual([]);
    expect(said(checkReceipts(files({ usage: [line(null, null)], ledger: ledgerFor(1, 0) }), rules))).toEqual([['PK522', 'receipts/ledger.json', null, expect.stringContaining('tokens 0')]]);
  });
});
