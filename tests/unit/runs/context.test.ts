import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/errors/diagnostic.ts';
import { openRunContext, type RunHost } from '../../../src/runs/context.ts';
import type { ModelFlags } from '../../../src/runs/model-endpoint.ts';
import { SCRATCH_MARKER, SCRATCH_PREFIX } from '../../../src/sandbox/scratch.ts';
import { fakeSandboxMaker } from '../../support/fake-sandbox.ts';

let parent: string;
beforeEach(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'packet-runs-context-'));
});
afterEach(() => rm(parent, { recursive: true, force: true }));

function heard() {
  const messages: string[] = [];
  const diagnostics: Diagnostic[] = [];
  return { messages, diagnostics, reporter: { onMessage: (t: string) => void messages.push(t), onDiagnostic: (d: Diagnostic) => void diagnostics.push(d) } };
}

function host(env: Record<string, string | undefined> = {}, prepareSandbox?: RunHost['prepareSandbox']): RunHost {
  return { env, cwd: parent, now: () => new Date('2026-11-29T12:00:00Z'), tmpDir: parent, ...(prepareSandbox ? { prepareSandbox } : {}) };
}

const scratchRoots = async () => (await readdir(parent)).filter((n) => n.startsWith(SCRATCH_PREFIX));

describe('openRunContext: the sandbox in an owned scratch root', () => {
  it('makes the sandbox once, inside a scratch root of its own, and dispose removes the root and disposes the sandbox', async () => {
    const fake = fakeSandboxMaker();
    const ctx = openRunContext('grade', host({}, fake.prepare), { unconfined: false, packets: 'packets' })!;
    expect(await scratchRoots()).toEqual([]);
    const first = await ctx.sandbox();
    const again = await ctx.sandbox();
    if (!first.ok || !again.ok) throw new Error('no sandbox');
    expect(again.ready).toBe(first.ready);
    expect(fake.seen.prepared).toHaveLength(1);
    const { scratchDir } = first.ready;
    expect(path.dirname(scratchDir)).toBe(parent);
    expect(path.basename(scratchDir).startsWith(SCRATCH_PREFIX)).toBe(true);
    // The interpreter shim and the self-test live in it too.
    expect(fake.seen.prepared[0]!.tmpDir).toBe(scratchDir);
    await stat(path.join(scratchDir, SCRATCH_MARKER));
    expect(first.ready.runner(5000)).toMatchObject({ timeoutMs: 5000, sandbox: first.ready.environment.sandbox });
    await ctx.dispose();
    expect(await scratchRoots()).toEqual([]);
    expect(fake.seen.disposed).toBe(1);
    await ctx.dispose();
    expect(fake.seen.disposed).toBe(1);
  });

  it("says the sandbox's notes once, when the sandbox is made, however often it is asked for", async () => {
    const fake = fakeSandboxMaker('bubblewrap', ["no cgroup caps a run's total memory and processes (why); each process keeps its own caps"]);
    const { messages, reporter } = heard();
    const ctx = openRunContext('rehearse', host({}, fake.prepare), { unconfined: false, packets: 'packets' }, reporter)!;
    expect(messages).toEqual([]);
    await ctx.sandbox();
    await ctx.sandbox();
    expect(messages).toEqual(["note: no cgroup caps a run's total memory and processes (why); each process keeps its own caps\n"]);
    await ctx.dispose();
  });

  it('removes on Ctrl-C: the scratch root listens for SIGINT while it lives, and stops when disposed', async () => {
    const before = process.listenerCount('SIGINT');
    const ctx = openRunContext('mutate', host({}, fakeSandboxMaker().prepare), { unconfined: false, packets: 'packets' })!;
    await ctx.sandbox();
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    await ctx.dispose();
    expect(process.listenerCount('SIGINT')).toBe(before);
  });

  it('removes the scratch root of a run that died without a chance to, and leaves a live one', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const stale = path.join(parent, `${SCRATCH_PREFIX}stale`);
    const alive = path.join(parent, `${SCRATCH_PREFIX}alive`);
    for (const [dir, pid] of [[stale, dead], [alive, process.ppid]] as const) {
      await mkdir(dir);
      await writeFile(path.join(dir, SCRATCH_MARKER), JSON.stringify({ pid, uid: process.getuid!() }));
    }
    const ctx = openRunContext('rehearse', host({}, fakeSandboxMaker().prepare), { unconfined: false, packets: 'packets' })!;
    await ctx.sandbox();
    expect((await scratchRoots()).sort()).toEqual([path.basename(alive), path.basename((await ctx.sandbox() as { ready: { scratchDir: string } }).ready.scratchDir)].sort());
    await ctx.dispose();
    expect(await scratchRoots()).toEqual([path.basename(alive)]);
  });

  it('says why there is no sandbox, and leaves no scratch root behind', async () => {
    const ctx = openRunContext('grade', host({}, async () => ({ ok: false, message: 'bwrap is not installed', hint: 'install it' })), { unconfined: false, packets: 'my-packets' })!;
    const got = await ctx.sandbox();
    expect(got.ok).toBe(false);
    if (got.ok) return;
    expect(got.diagnostic.file).toBe('my-packets');
    expect(got.diagnostic.message).toContain('bwrap is not installed');
    expect(await scratchRoots()).toEqual([]);
    await ctx.dispose();
  });

  it('refuses a live model on an unconfined sandbox, and removes the root', async () => {
    const fake = fakeSandboxMaker('unconfined');
    const flags: ModelFlags = { endpoint: 'https://models.example/v1', model: 'm', apiKeyEnv: 'KEY', scriptedOnly: 'x' };
    const ctx = openRunContext('mutate', host({ KEY: 'sk-secret-key' }, fake.prepare), { unconfined: true, packets: 'packets', model: flags })!;
    const got = await ctx.sandbox();
    expect(got.ok).toBe(false);
    if (got.ok) return;
    expect(got.diagnostic.file).toBe('--unconfined');
    expect(got.diagnostic.message).toContain('models.example');
    expect(fake.seen.disposed).toBe(1);
    expect(await scratchRoots()).toEqual([]);
  });

  it('closes the scripted servers it started on dispose', async () => {
    const ctx = openRunContext('rehearse', host(), { unconfined: false, packets: 'packets' })!;
    const server = await ctx.scriptedServer([]);
    await fetch(`${server.url}/models`);
    await ctx.dispose();
    await expect(fetch(`${server.url}/models`)).rejects.toThrow();
  });

  it('caps the packet budget by the flags and names the flags it ignores', () => {
    const ctx = openRunContext('mutate', host(), { unconfined: false, packets: 'packets', budget: { modelCalls: 2, tokens: 99_999 } })!;
    const { limits, ignored } = ctx.budget({ modelCalls: 5, tokens: 1000, wallSeconds: 60, identicalErrors: 3 });
    expect(limits).toEqual({ modelCalls: 2, tokens: 1000, wallSeconds: 60, identicalErrors: 3 });
    expect(ignored.join(' ')).toMatch(/tokens/);
  });
});

describe('openRunContext: the model, the endpoint and the key', () => {
  const rehearse = (o: Partial<ModelFlags> = {}): ModelFlags => ({ apiKeyEnv: 'OPENAI_API_KEY', modelList: true, keyAlways: true, scriptedOnly: 'rehearsing the scripted replies only', ...o });
  const mutate = (o: Partial<ModelFlags> = {}): ModelFlags => ({ apiKeyEnv: 'OPENAI_API_KEY', scriptedOnly: 'using the embedded scripted endpoint', ...o });

  it('stops on an endpoint that is not a URL, naming where it came from', () => {
    const h = heard();
    expect(openRunContext('mutate', host(), { unconfined: false, packets: 'p', model: mutate({ endpoint: 'models.example', model: 'm' }) }, h.reporter)).toBeNull();
    expect(h.diagnostics.map((d) => [d.file, d.severity])).toEqual([['--endpoint', 'error']]);
    expect(h.diagnostics[0]!.message).toMatch(/scheme/);
    const env = heard();
    expect(openRunContext('rehearse', host({ LLM_ENDPOINT: 'nope', LLM_MODEL: 'm' }), { unconfined: false, packets: 'p', model: rehearse() }, env.reporter)).toBeNull();
    expect(env.diagnostics.map((d) => d.file)).toEqual(['$LLM_ENDPOINT']);
  });

  it('stops on a flag endpoint without a model', () => {
    const h = heard();
    expect(openRunContext('mutate', host(), { unconfined: false, packets: 'p', model: mutate({ endpoint: 'https://models.example' }) }, h.reporter)).toBeNull();
    expect(h.diagnostics.map((d) => d.file)).toEqual(['--endpoint']);
    expect(h.diagnostics[0]!.message).toMatch(/model/i);
  });

  it('notes an endpoint in the environment without a model, and uses the embedded one', () => {
    const h = heard();
    const ctx = openRunContext('mutate', host({ OPENAI_BASE_URL: 'https://models.example', OPENAI_API_KEY: 'sk-abcdef' }), { unconfined: false, packets: 'p', model: mutate() }, h.reporter)!;
    expect(ctx.live).toBeUndefined();
    expect(ctx.apiKey).toBeNull();
    expect(h.messages).toEqual(['note: $OPENAI_BASE_URL is set but no --model is given; using the embedded scripted endpoint.\n']);
    const r = heard();
    openRunContext('rehearse', host({ LLM_ENDPOINT: 'https://models.example' }), { unconfined: false, packets: 'p', model: rehearse() }, r.reporter);
    expect(r.messages).toEqual(['note: $LLM_ENDPOINT is set but no --model (or $LLM_MODEL) is given; rehearsing the scripted replies only.\n']);
  });

  it('notes $LLM_MODEL without an endpoint, and refuses a model list that names none', () => {
    const h = heard();
    const ctx = openRunContext('rehearse', host({ LLM_MODEL: 'gpt-x' }), { unconfined: false, packets: 'p', model: rehearse() }, h.reporter)!;
    expect(ctx.models).toBeUndefined();
    expect(h.messages[0]).toMatch(/^note: \$LLM_MODEL is set but no endpoint is/);
    const none = heard();
    expect(openRunContext('rehearse', host(), { unconfined: false, packets: 'p', model: rehearse({ model: ' , ' }) }, none.reporter)).toBeNull();
    expect(none.messages).toEqual(['packet rehearse: --model names no model (" , "); give one or more ids, comma-separated.\n']);
    const list = openRunContext('rehearse', host(), { unconfined: false, packets: 'p', model: rehearse({ model: 'a, b,a' }) })!;
    expect(list.models).toEqual(['a', 'b']);
  });

  it('warns of a live endpoint without a key, and redacts the key once it has one', () => {
    const h = heard();
    const keyless = openRunContext('mutate', host(), { unconfined: false, packets: 'p', model: mutate({ endpoint: 'https://models.example/v1?x=1', model: 'm' }) }, h.reporter)!;
    expect(keyless.live).toMatchObject({ host: 'models.example', defaultQuery: { x: '1' } });
    expect(keyless.apiKey).toBeNull();
    expect(h.diagnostics.map((d) => [d.file, d.severity])).toEqual([['OPENAI_API_KEY', 'warning']]);
    const keyed = openRunContext('mutate', host({ MY_KEY: 'sk-live-0123456789' }), { unconfined: false, packets: 'p', model: mutate({ endpoint: 'https://models.example', model: 'm', apiKeyEnv: 'MY_KEY' }) })!;
    expect(keyed.apiKey).toBe('sk-live-0123456789');
    expect(keyed.redact('key sk-live-0123456789 here')).toBe('key [redacted] here');
    expect(keyed.secrets.list()).toEqual(['sk-live-0123456789']);
    // Mutate reads the key for a live endpoint only; a rehearsal reads it always (and redacts it all the same).
    expect(openRunContext('mutate', host({ OPENAI_API_KEY: 'sk-abcdef' }), { unconfined: false, packets: 'p', model: mutate() })!.apiKey).toBeNull();
    expect(openRunContext('rehearse', host({ OPENAI_API_KEY: 'sk-abcdef' }), { unconfined: false, packets: 'p', model: rehearse() })!.apiKey).toBe('sk-abcdef');
  });
});
