import { mkdtemp, readFile, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMeter, effectiveBudget, INITIAL_PROMPT_FACTOR, PROMPT_FACTOR_MARGIN } from '../../../src/llm/budget.ts';
import { createLedger, sumUsage, type UsageLine } from '../../../src/llm/ledger.ts';
import { redact, stableJson } from '../../../src/llm/stable-json.ts';

const packetBudget = { modelCalls: 6, tokens: 20_000, wallSeconds: 600, identicalErrors: 3 };

describe('the budget', () => {
  it('lets flags lower a cap, never raise it', () => {
    expect(effectiveBudget(packetBudget, { modelCalls: 2, tokens: 50_000 })).toEqual({
      limits: { modelCalls: 2, tokens: 20_000, wallSeconds: 600, identicalErrors: 3 },
      ignored: ['tokens 50000 (the packet allows 20000; flags can only lower a budget)'],
    });
    expect(effectiveBudget(packetBudget, {}).limits).toEqual(packetBudget);
  });

  it('counts calls, known tokens, unknown usage, the clock and identical errors in a row', () => {
    let now = 0;
    const meter = createMeter({ modelCalls: 5, tokens: 100, wallSeconds: 10, identicalErrors: 2 }, () => now);
    const ok = (p: number, c: number) => ({ error: null, usable: true, errorKey: null, usage: { prompt_tokens: p, completion_tokens: c } });
    const fail = (key: string) => ({ error: 'server-error' as const, usable: false, errorKey: key, usage: null });
    expect(meter.capReached()).toBeNull();
    meter.record(fail('server-error|500'));
    meter.record(fail('server-error|503'));
    expect(meter.capReached()).toBeNull();
    meter.record(fail('server-error|503'));
    expect(meter.capReached()).toBe('identical-errors');
    meter.record(ok(10, 5));
    expect(meter.capReached()).toBeNull();
    meter.record({ error: 'missing-usage', usable: true, errorKey: null, usage: null });
    // A 5xx answer spends no tokens by contract; a completion without usage may have: unknown.
    expect(meter.spent()).toEqual({ calls: 5, knownTokens: 15, unknownUsageCalls: 1, estimatedUnknownTokens: 0, wallMs: 0, identicalErrors: 0 });
    expect(meter.capReached()).toBe('model-calls');
    const tokens = createMeter({ modelCalls: 5, tokens: 100, wallSeconds: 10, identicalErrors: 2 }, () => now);
    tokens.record(ok(90, 20));
    expect(tokens.capReached()).toBe('tokens');
    const clock = createMeter(packetBudget, () => now);
    now = 599_000;
    expect(clock.remainingMs()).toBe(1000);
    now = 600_000;
    expect(clock.capReached()).toBe('wall-clock');
  });
});

describe('the ledger', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  const header = { packet: 'p', version: '1.0.0', digest: 'abc', model: 'm', endpoint: '127.0.0.1:1' };
  const line = (over: Partial<UsageLine>): Omit<UsageLine, 'duplicate_of'> => ({
    ts: '2026-11-29T12:00:00.000Z',
    model: 'm',
    turn: 1,
    attempt: 1,
    served_model: null,
    prompt_tokens: 10,
    completion_tokens: 5,
    prompt_estimate: 12,
    max_tokens: 4096,
    bytes_out: 100,
    bytes_in: 50,
    status: 200,
    error: null,
    message: null,
    finish_reason: 'stop',
    reasoning_chars: null,
    request: 'r1',
    ms: 3,
    ...over,
  });

  it('writes one sorted line per attempt, marks duplicates, and sums them with unknown usage kept unknown', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ledger-'));
    dirs.push(dir);
    const ledger = await createLedger({ dir, header, secrets: ['sk-very-secret'] });
    await ledger.append(line({ error: 'rate-limit', status: 429, prompt_tokens: null, completion_tokens: null }));
    await ledger.append(line({ attempt: 2, error: 'rate-limit', status: 429, prompt_tokens: null, completion_tokens: null }));
    await ledger.append(line({ attempt: 3 }));
    await ledger.append(line({ turn: 2, request: 'r2', model: 'sk-very-secret' }));
    await ledger.append(line({ turn: 3, request: 'r3', error: 'timeout', status: null, prompt_tokens: null, completion_tokens: null, bytes_in: 0 }));
    expect(ledger.lines.map((l) => l.duplicate_of)).toEqual([null, 0, null, null, null]);
    const usage = await readFile(path.join(dir, 'usage.jsonl'), 'utf8');
    const rows = usage.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toHaveLength(5);
    expect(Object.keys(rows[0]!)).toEqual([...Object.keys(rows[0]!)].sort());
    expect(rows[0]).toMatchObject({ prompt_tokens: null, completion_tokens: null, error: 'rate-limit', status: 429, duplicate_of: null });
    expect(usage).not.toContain('sk-very-secret');
    const sum = await ledger.close({ verdict: 'PASS' });
    // The two 429s spent nothing by contract; the timeout may have: the total is unknown.
    expect(sum).toMatchObject({ calls: 5, prompt_tokens: null, completion_tokens: null, tokens: null, known_prompt_tokens: 20, known_completion_tokens: 10, usage_unknown_calls: 1, bytes_out: 500, bytes_in: 200, errors: { 'rate-limit': 2, timeout: 1 }, duplicates: 1, digest: 'abc' });
    expect(sumUsage(header, ledger.lines.slice(0, 4))).toMatchObject({ prompt_tokens: 20, completion_tokens: 10, tokens: 30, usage_unknown_calls: 0 });
    const written = JSON.parse(await readFile(path.join(dir, 'ledger.json'), 'utf8'));
    expect(written).toEqual({ ...sum, verdict: 'PASS' });
    // The sum is a pure function of the lines: recomputing from usage.jsonl gives the same ledger.
    expect(sumUsage(header, rows as unknown as UsageLine[])).toEqual(sum);
    expect(ledger.paths().giveUp).toBeNull();
    await ledger.giveUp({ reason: 'model-calls', detail: 'the model-calls cap was reached', limit: 4, spent: { calls: 4, knownTokens: 30, unknownUsageCalls: 2, estimatedUnknownTokens: 900, wallMs: 5, identicalErrors: 0 }, ts: 't' });
    expect(JSON.parse(await readFile(path.join(dir, 'give_up.json'), 'utf8'))).toMatchObject({ schemaVersion: 2, reason: 'model-calls', limit: 4, packet: 'p', digest: 'abc' });
    expect((await readdir(dir)).sort()).toEqual(['give_up.json', 'ledger.json', 'usage.jsonl']);
  });

  it('writes a server\'s text (a model name it answered with) with no raw bidi or C1 character, the same value read back', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ledger-'));
    dirs.push(dir);
    const ledger = await createLedger({ dir, header });
    await ledger.append(line({ model: 'gpt\u202eevil\u0085\u001b[2J' }));
    const usage = await readFile(path.join(dir, 'usage.jsonl'), 'utf8');
    expect(usage).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect((JSON.parse(usage.trim()) as { model: string }).model).toBe('gpt\u202eevil\u0085\u001b[2J');
  });

  it('sums to known totals when every call reported usage', () => {
    const sum = sumUsage(header, [{ ...line({}), duplicate_of: null }, { ...line({ prompt_tokens: 7, completion_tokens: 1 }), duplicate_of: null }]);
    expect(sum).toMatchObject({ tokens: 23, usage_unknown_calls: 0, duplicates: 0 });
  });

  it('keeps a memory-only ledger when given no folder', async () => {
    const ledger = await createLedger({ dir: null, header });
    await ledger.append(line({}));
    await ledger.close();
    expect(ledger.paths()).toEqual({ usage: null, ledger: null, giveUp: null });
  });
});

describe('stable JSON', () => {
  it('sorts keys at every depth and drops undefined', () => {
    expect(stableJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[{"y":2,"z":1}]},"b":1}');
  });
  it('redacts secrets', () => {
    expect(redact('key=abcd1234 and abcd1234', ['abcd1234', 'ab'])).toBe('key=[redacted] and [redacted]');
  });
});

describe('the token cap before the call', () => {
  const limits = { modelCalls: 10, tokens: 10_000, wallSeconds: 600, identicalErrors: 3 };

  it('refuses a call whose prompt estimate and max_tokens could cross the cap, and names it', () => {
    const meter = createMeter(limits, () => 0);
    // Before any usage is reported, the count carries the initial margin.
    expect(meter.calibrated(1000)).toBe(Math.ceil(1000 * INITIAL_PROMPT_FACTOR));
    expect(meter.nextCallStop(1000, 4096)).toBeNull();
    meter.record({ error: null, usable: true, errorKey: null, usage: { prompt_tokens: 1100, completion_tokens: 900 }, promptCount: 1000 });
    // Calibrated on what the endpoint reported: 1.1 times the count, plus the margin.
    expect(PROMPT_FACTOR_MARGIN).toBe(1.05);
    expect(meter.calibrated(1000)).toBe(1155);
    expect(meter.nextCallStop(4000, 4096)).toEqual({
      reason: 'tokens',
      detail: 'the next call could cross the 10000-token cap: 2000 spent + about 4620 prompt + 4096 max_tokens = 10716',
      estimate: { prompt: 4620, maxTokens: 4096, spent: 2000 },
    });
    expect(meter.nextCallStop(3000, 4096)).toBeNull();
  });

  it('counts what an attempt without usage may have spent against the cap', () => {
    const meter = createMeter(limits, () => 0);
    meter.record({ error: 'missing-usage', usable: true, errorKey: null, usage: null, promptCount: 100, unreported: 5000 });
    meter.record({ error: 'server-error', usable: false, errorKey: 'server-error|500', usage: null, unreported: 999 });
    expect(meter.spent()).toMatchObject({ knownTokens: 0, unknownUsageCalls: 1, estimatedUnknownTokens: 5000 });
    expect(meter.nextCallStop(1000, 4096)).toMatchObject({ reason: 'tokens', estimate: { spent: 5000 } });
  });

  it('does not count a rate limit that asks for a wait as an identical error', () => {
    const meter = createMeter(limits, () => 0);
    for (let i = 0; i < 5; i++) meter.record({ error: 'rate-limit', usable: false, errorKey: null, usage: null });
    expect(meter.capReached()).toBeNull();
    for (let i = 0; i < 3; i++) meter.record({ error: 'rate-limit', usable: false, errorKey: 'rate-limit|429', usage: null });
    expect(meter.capReached()).toBe('identical-errors');
  });
});

describe('the budget at its boundaries', () => {
  const limits = { modelCalls: 10, tokens: 10_000, wallSeconds: 600, identicalErrors: 3 };

  it('ignores a flag equal to the packet\'s cap without naming it', () => {
    expect(effectiveBudget(packetBudget, { modelCalls: 6, tokens: 20_000 })).toEqual({ limits: packetBudget, ignored: [] });
  });

  it('lets a call through whose estimate reaches the cap exactly', () => {
    const meter = createMeter(limits, () => 0);
    meter.record({ error: null, usable: true, errorKey: null, usage: { prompt_tokens: 1000, completion_tokens: 0 }, promptCount: 1000 });
    // factor 1 * 1.05: 1000 spent + 1050 prompt + 7950 max_tokens = 10000
    expect(meter.nextCallStop(1000, 7950)).toBeNull();
    expect(meter.nextCallStop(1000, 7951)).toMatchObject({ reason: 'tokens' });
  });

  it('stops at the token cap reached by known and estimated unknown tokens together', () => {
    const meter = createMeter(limits, () => 0);
    meter.record({ error: null, usable: true, errorKey: null, usage: { prompt_tokens: 3000, completion_tokens: 1000 } });
    meter.record({ error: 'missing-usage', usable: true, errorKey: null, usage: null, unreported: 5999 });
    expect(meter.capReached()).toBeNull();
    meter.record({ error: 'missing-usage', usable: true, errorKey: null, usage: null, unreported: 1 });
    expect(meter.capReached()).toBe('tokens');
  });

  it('keeps its calibration when a call reports usage without a prompt count', () => {
    const meter = createMeter(limits, () => 0);
    meter.record({ error: null, usable: true, errorKey: null, usage: { prompt_tokens: 1100, completion_tokens: 0 }, promptCount: 1000 });
    meter.record({ error: null, usable: true, errorKey: null, usage: { prompt_tokens: 50, completion_tokens: 0 } });
    expect(meter.calibrated(1000)).toBe(1155);
  });

  it('measures the wall clock from its start', () => {
    let now = 5000;
    const meter = createMeter(limits, () => now);
    now = 5750;
    expect(meter.spent().wallMs).toBe(750);
  });
});

describe('the ledger: files, duplicates and sums', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  const header = { packet: 'p', version: '1.0.0', digest: 'abc', model: 'm', endpoint: '127.0.0.1:1' };
  const line = (over: Partial<UsageLine>): Omit<UsageLine, 'duplicate_of'> => ({
    ts: 't', model: 'm', turn: 1, attempt: 1, served_model: null, prompt_tokens: 10, completion_tokens: 5, prompt_estimate: 12, max_tokens: 4096,
    bytes_out: 100, bytes_in: 50, status: 200, error: null, message: null, finish_reason: 'stop', reasoning_chars: null, request: 'r1', ms: 3, ...over,
  });
  const giveUp = { reason: 'model-calls' as const, detail: 'd', limit: 4, spent: { calls: 4, knownTokens: 0, unknownUsageCalls: 0, estimatedUnknownTokens: 0, wallMs: 0, identicalErrors: 0 }, ts: 't' };

  it('names the file in the error of a write that fails for a full disk (ENOSPC, from /dev/full), so the run can tell it is its folder', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'ledger-'));
    dirs.push(root);
    for (const f of ['usage.jsonl', 'ledger.json', 'give_up.json']) await symlink('/dev/full', path.join(root, f));
    const ledger = await createLedger({ dir: root, header });
    await expect(ledger.append(line({}))).rejects.toMatchObject({ code: 'ENOSPC', path: path.join(root, 'usage.jsonl') });
    await expect(ledger.close()).rejects.toMatchObject({ code: 'ENOSPC', path: path.join(root, 'ledger.json') });
    await expect(ledger.giveUp(giveUp)).rejects.toMatchObject({ code: 'ENOSPC', path: path.join(root, 'give_up.json') });
  });

  it('creates its folder, starts usage.jsonl empty, and ends each file with a newline', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'ledger-'));
    dirs.push(root);
    const dir = path.join(root, 'deep', 'receipts');
    const ledger = await createLedger({ dir, header });
    expect(await readFile(path.join(dir, 'usage.jsonl'), 'utf8')).toBe('');
    expect(ledger.paths()).toEqual({ usage: path.join(dir, 'usage.jsonl'), ledger: null, giveUp: null });
    await ledger.close();
    expect(ledger.paths().ledger).toBe(path.join(dir, 'ledger.json'));
    expect(ledger.paths().giveUp).toBeNull();
    await ledger.giveUp(giveUp);
    expect(ledger.paths().giveUp).toBe(path.join(dir, 'give_up.json'));
    expect(await readFile(path.join(dir, 'ledger.json'), 'utf8')).toMatch(/}\n$/);
    expect(await readFile(path.join(dir, 'give_up.json'), 'utf8')).toMatch(/}\n$/);
    const again = await createLedger({ dir, header });
    expect(await readFile(path.join(dir, 'usage.jsonl'), 'utf8')).toBe('');
    expect(again.lines).toEqual([]);
  });

  it('writes no file for a memory-only ledger, a give-up included', async () => {
    const ledger = await createLedger({ dir: null, header });
    expect(await ledger.giveUp(giveUp)).toMatchObject({ reason: 'model-calls', packet: 'p' });
    expect(ledger.paths()).toEqual({ usage: null, ledger: null, giveUp: null });
  });

  it('marks a repeat of the same request, error and status as a duplicate of the first', async () => {
    const ledger = await createLedger({ dir: null, header });
    await ledger.append(line({ error: 'server-error', status: 500 }));
    await ledger.append(line({ error: 'server-error', status: 500 }));
    await ledger.append(line({ error: 'server-error', status: 500 }));
    await ledger.append(line({ error: 'server-error', status: 503 }));
    await ledger.append(line({ error: 'timeout', status: 500 }));
    await ledger.append(line({ error: null, status: 500 }));
    expect(ledger.lines.map((l) => l.duplicate_of)).toEqual([null, 0, 0, null, null, null]);
  });

  it('keeps a line with only one of its token counts unknown, and counts errors only when there is one', () => {
    const sum = sumUsage(header, [
      { ...line({ prompt_tokens: null, completion_tokens: 5 }), duplicate_of: null },
      { ...line({ prompt_tokens: 7, completion_tokens: null }), duplicate_of: null },
      { ...line({}), duplicate_of: null },
    ]);
    expect(sum).toMatchObject({ tokens: null, known_prompt_tokens: 10, known_completion_tokens: 5, usage_unknown_calls: 2 });
    expect(sum.errors).toEqual({});
  });
});
