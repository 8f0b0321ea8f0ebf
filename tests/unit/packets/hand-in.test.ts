import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run-cli.ts';
import { memoryIo } from '../../../src/cli/io.ts';
import type { Diagnostic } from '../../../src/errors/diagnostic.ts';
import { drillPromptSchema, handInSchema, promptSchema } from '../../../src/packets/schema/index.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';

let t: TempPackets;
beforeEach(async () => {
  t = await tempPackets();
});
afterEach(async () => {
  await t.dispose();
});

async function checkWith(handIn: string): Promise<Diagnostic[]> {
  const dir = await t.add('p');
  const file = path.join(dir, 'prompt.mdx');
  const text = await readFile(file, 'utf8');
  await writeFile(file, text.replace(/^seed: .*$/m, (line) => `${line}\nhandIn: ${handIn}`));
  const io = memoryIo(t.root);
  await runCli(['check', '--format', 'json'], io);
  return (JSON.parse(io.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
}

describe("the prompt's handIn field", () => {
  it('is optional for every kind, and a drill takes it too', () => {
    expect(promptSchema.shape.handIn.safeParse(undefined).success).toBe(true);
    expect(drillPromptSchema.shape.handIn.safeParse({ to: 'lead@example.com', note: 'Subject: drill' }).success).toBe(true);
  });

  it('refuses an empty or overlong address, saying what to write', () => {
    const empty = handInSchema.safeParse({ to: '  ' });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0]).toMatchObject({ path: ['to'], message: expect.stringContaining("the hiring lead's email address or a link") });
    const long = handInSchema.safeParse({ to: 'x'.repeat(201) });
    expect(long.error?.issues[0]?.message).toContain('handIn.note');
    expect(handInSchema.safeParse({ to: 'lead@example.com', url: 'https://example.com' }).success).toBe(false);
  });

  it('is clean in packet check when set, and a bad one names the field and the fix', async () => {
    expect((await checkWith('{ to: "lead@example.com" }')).filter((d) => d.severity === 'error')).toEqual([]);
    await t.dispose();
    t = await tempPackets();
    const errors = (await checkWith('{ to: "" }')).filter((d) => d.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain('handIn');
    expect(errors[0]!.message).toContain("the hiring lead's email address or a link");
  });
});
