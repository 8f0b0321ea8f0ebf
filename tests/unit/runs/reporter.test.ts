import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../src/errors/catalog.ts';
import { ModelErrors } from '../../../src/errors/model-catalog.ts';
import { diagnosticText, fanOut, messagesTo } from '../../../src/runs/reporter.ts';
import { createSecrets } from '../../../src/runs/secrets.ts';

interface Hooks {
  onStart?(n: number): void;
  onItem?(id: string, done: number): void;
  onEnd?(): void | Promise<void>;
}

describe('fanOut', () => {
  it('tells every reporter of each event it listens for, in order, with the same arguments', () => {
    const heard: string[] = [];
    const one: Hooks = { onStart: (n) => void heard.push(`one start ${n}`), onItem: (id, d) => void heard.push(`one ${id} ${d}`) };
    const two: Hooks = { onItem: (id, d) => void heard.push(`two ${id} ${d}`) };
    const r = fanOut<Hooks>([one, two]);
    r.onStart?.(3);
    r.onItem?.('a', 1);
    expect(heard).toEqual(['one start 3', 'one a 1', 'two a 1']);
  });

  it('has no hook that none of its reporters has, so an optional call stays a no-op', () => {
    const r = fanOut<Hooks>([{ onStart: () => {} }, {}]);
    expect(Object.keys(r)).toEqual(['onStart']);
    expect(r.onEnd).toBeUndefined();
    expect(Object.keys(fanOut<Hooks>([]))).toEqual([]);
  });

  it('waits for a hook that returns a promise before telling the next reporter', async () => {
    const heard: string[] = [];
    let release!: () => void;
    const slow: Hooks = { onEnd: () => new Promise<void>((resolve) => (release = () => (heard.push('slow'), resolve()))) };
    const fast: Hooks = { onEnd: () => void heard.push('fast') };
    const done = fanOut<Hooks>([slow, fast]).onEnd!();
    expect(heard).toEqual([]);
    release();
    await done;
    expect(heard).toEqual(['slow', 'fast']);
  });

  it('keeps `this` of each reporter', () => {
    const counter = { n: 0, onStart(k: number) { this.n += k; } };
    fanOut<Hooks>([counter]).onStart!(2);
    expect(counter.n).toBe(2);
  });
});

describe('messagesTo and diagnosticText', () => {
  it('prints a message as written and a diagnostic with its code, its severity when a warning, and its hint', () => {
    const err: string[] = [];
    const m = messagesTo((t) => void err.push(t), (list) => `${list.length} packet diagnostics\n`);
    const warning = diagnose(ModelErrors.ApiKeyMissing, { file: 'KEY' }, { variable: 'KEY' });
    const error = diagnose(ModelErrors.ModelMissing, { file: '--endpoint' }, { source: '--endpoint' });
    m.onMessage('note: a note\n');
    m.onDiagnostic(warning);
    m.onDiagnostic(error);
    m.onPacketDiagnostics([error, warning]);
    expect(err[0]).toBe('note: a note\n');
    expect(err[1]).toBe(`${warning.code} warning ${warning.message}\n  hint: ${warning.hint}\n`);
    expect(err[2]).toBe(`${error.code} ${error.message}\n  hint: ${error.hint}\n`);
    expect(err[3]).toBe('2 packet diagnostics\n');
    expect(diagnosticText(error)).toBe(err[2]);
  });
});

describe('createSecrets', () => {
  it('redacts every secret added, ignores empty ones, and lists each once', () => {
    const s = createSecrets();
    expect(s.redact('sk-one-secret')).toBe('sk-one-secret');
    s.add(null);
    s.add('');
    s.add('sk-one-secret');
    s.add('sk-one-secret');
    expect(s.list()).toEqual(['sk-one-secret']);
    expect(s.redact('a sk-one-secret b')).toBe('a [redacted] b');
  });
});
