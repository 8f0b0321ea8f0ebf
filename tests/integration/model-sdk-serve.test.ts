import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPackets } from '../../src/packets/load.ts';
import { codePackets } from '../../src/packets/packet.ts';
import { hasPlaceholder, placeholderValues, renderTemplate, variantValues } from '../../src/packets/variants.ts';

/**
 * The official `openai` SDK as a client of `packet serve-model`, run as its own process (the
 * real CLI), on 127.0.0.1 with a port picked by the system, and every kind of answer held
 * against the schemas of OpenAI's own OpenAPI description (tests/fixtures/openai-openapi). The
 * child has an IPC channel, so it also stops by itself if this test process dies.
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

  it('serves a packet\'s reply as a chat completion, with usage; a packet with variants, its first variant\'s', async () => {
    // fetch-retry-ticket has variants: the reply is served with v1's values written in, as `packet rehearse --model` gives the model v1.
    const raw = await readFile(path.join(root, 'packets/fetch-retry-ticket/replies/sample.md'), 'utf8');
    const { packets } = await loadPackets({ packetsDir: 'packets', cwd: root, ids: ['fetch-retry-ticket'] });
    const data = codePackets(packets)[0]!.prompt.data;
    const reply = renderTemplate(raw, placeholderValues(1, variantValues(data.seed, data.variants!, 1)));
    expect(hasPlaceholder(raw)).toBe(true);
    expect(hasPlaceholder(reply)).toBe(false);
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

describe('packet serve-model, against the OpenAPI schemas of the official API description', () => {
  const spec = JSON.parse(readFileSync(path.join(root, 'tests/fixtures/openai-openapi/schemas.json'), 'utf8')) as object;
  // The description is OpenAPI 3.1: JSON Schema 2020-12 plus vendor keywords (x-...) and formats such as "unixtime".
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(spec, 'openai');
  const schema = (name: string) => ajv.getSchema(`openai#/components/schemas/${name}`)!;
  const post = async (model: string) => {
    const r = await fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model, messages: [{ role: 'user', content: 'x' }], max_tokens: 4096, stream: false }) });
    return { status: r.status, body: (await r.json()) as unknown };
  };
  const valid = (name: string, body: unknown) => {
    const check = schema(name);
    const ok = check(body);
    return ok ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };

  it('knows the schemas (a test that can fail: the old answer misses two required fields)', () => {
    const old = { id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: 'stop' }] };
    expect(valid('CreateChatCompletionResponse', old)).toEqual(["/choices/0 must have required property 'logprobs'", "/choices/0/message must have required property 'refusal'"]);
  });

  it.each(['scripted:fetch-retry-ticket/sample', 'fault:no-usage@scripted:fetch-retry-ticket/sample', 'fault:think@scripted:fetch-retry-ticket/sample', 'fault:served-model', 'fault:reasoning-field', 'fault:length'])(
    '%s answers a schema-complete chat completion',
    async (model) => {
      const { status, body } = await post(model);
      expect(status).toBe(200);
      expect(valid('CreateChatCompletionResponse', body)).toEqual([]);
    },
  );

  it('lists models and answers errors in the schema\'s shapes', async () => {
    const models = await (await fetch(`${url}/models`)).json();
    expect(valid('ListModelsResponse', models)).toEqual([]);
    for (const model of ['scripted:no-such/sample', 'fault:401', 'fault:429-retry-after', 'fault:500', 'fault:insufficient-quota']) {
      const { status, body } = await post(model);
      expect(status, model).toBeGreaterThanOrEqual(400);
      expect(valid('ErrorResponse', body), model).toEqual([]);
    }
  });
});
