import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The official `openai` SDK as a client of `packet serve-model`, run as its own process (the
 * real CLI), on 127.0.0.1 with a port picked by the system. The child has an IPC channel, so it
 * also stops by itself if this test process dies.
 */
const root = path.resolve(import.meta.dirname, '../..');
let child: ChildProcess;
let url: string;
let stdout = '';

beforeAll(async () => {
  child = fork(path.join(root, 'src/cli/bin.js'), ['serve-model', '--port', '0', '--slow-ms', '60000'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve-model did not start: ${stdout}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve-model exited ${code}: ${stdout}`)));
  });
});

afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

const sdk = () => new OpenAI({ baseURL: url, apiKey: 'not-needed', maxRetries: 0 });

describe('packet serve-model, through the official openai SDK', () => {
  it('listens on 127.0.0.1 only', () => {
    expect(new URL(url).hostname).toBe('127.0.0.1');
  });

  it('lists scripted replies and fault models', async () => {
    const ids = (await sdk().models.list()).data.map((m) => m.id);
    expect(ids).toContain('scripted:fetch-retry-ticket/sample');
    expect(ids).toContain('scripted:red-log-gate/mtime-order');
    expect(ids).toContain('fault:429-retry-after');
    expect(ids).toContain('fault:no-usage');
  });

  it('serves a packet\'s reply as a chat completion, with usage', async () => {
    const reply = await readFile(path.join(root, 'packets/fetch-retry-ticket/replies/sample.md'), 'utf8');
    const c = await sdk().chat.completions.create({ model: 'scripted:fetch-retry-ticket/sample', messages: [{ role: 'user', content: 'fix the retry ticket' }] });
    expect(c.object).toBe('chat.completion');
    expect(c.choices[0]!.message.content).toBe(reply);
    expect(c.choices[0]!.finish_reason).toBe('stop');
    expect(c.usage).toEqual({ prompt_tokens: 5, completion_tokens: Math.ceil(reply.length / 4), total_tokens: 5 + Math.ceil(reply.length / 4) });
  });

  it('answers an unknown model with an OpenAI-style 404', async () => {
    await expect(sdk().chat.completions.create({ model: 'scripted:no-such/sample', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
    });
  });

  it('fails on purpose: 429 with Retry-After, insufficient quota, a missing usage', async () => {
    const limited = await sdk().chat.completions.create({ model: 'fault:429-retry-after', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((limited as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('1');
    await expect(sdk().chat.completions.create({ model: 'fault:insufficient-quota', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      status: 429,
      code: 'insufficient_quota',
    });
    const noUsage = await sdk().chat.completions.create({ model: 'fault:no-usage', messages: [{ role: 'user', content: 'x' }] });
    expect(noUsage.usage).toBeUndefined();
    expect(noUsage.choices).toHaveLength(1);
  });
});
