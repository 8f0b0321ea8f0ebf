import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/run-cli.ts';
import { LAB_VARIANT_SCAFFOLD, VARIANT_SCAFFOLD } from '../../../src/cli/scaffold.ts';
import { loadPackets } from '../../../src/packets/load.ts';
import { codePackets } from '../../../src/packets/packet.ts';
import { packetVariants } from '../../../src/packets/variants-render.ts';

describe('packet new --variants', () => {
  let root: string;
  const cli = async (...args: string[]) => {
    const io = memoryIo(root, { env: {} });
    const code = await runCli(args, io);
    return { code, stdout: io.stdout, stderr: io.stderr };
  };
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'packet-kit-new-variants-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('scaffolds a take-home with a parameter in every tree, and it checks clean', async () => {
    const made = await cli('new', 'retry-names', '--variants');
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('It has 3 variants');
    const prompt = await readFile(path.join(root, 'packets/retry-names/prompt.mdx'), 'utf8');
    expect(prompt).toContain('variants:\n  count: 3\n  params:\n    func: { pick: [parse_duration, to_seconds, duration_seconds] }\n');
    for (const file of ['starter/src/duration.py', 'starter/tests/test_duration.py', 'sample/src/duration.py', 'hidden/tests/test_hidden_duration.py', 'mutants/drops-minutes/src/duration.py', 'mutants/accepts-garbage/src/duration.py', 'replies/sample.md']) {
      const text = await readFile(path.join(root, 'packets/retry-names', file), 'utf8');
      expect(text, file).toContain(`[[variant.${VARIANT_SCAFFOLD.param}]]`);
      expect(text, file).not.toContain(VARIANT_SCAFFOLD.name);
    }
    const checked = await cli('check', '--format', 'json');
    expect(checked.code, checked.stdout).toBe(0);
    expect(JSON.parse(checked.stdout).diagnostics).toEqual([]);
    const loaded = await loadPackets({ packetsDir: 'packets', cwd: root });
    const packet = codePackets(loaded.packets)[0]!;
    const variants = await packetVariants(packet, async (rel) => new Uint8Array(await readFile(path.join(root, packet.dir, rel))));
    expect(variants.map((v) => v.variant!.values.func).sort()).toEqual([...VARIANT_SCAFFOLD.pick].sort());
  });

  it('keeps the plain scaffold free of variants', async () => {
    expect((await cli('new', 'plain')).code).toBe(0);
    expect(await readFile(path.join(root, 'packets/plain/prompt.mdx'), 'utf8')).not.toContain('variants');
  });

  it('refuses --variants for a drill, writing nothing', async () => {
    const r = await cli('new', 'drill-x', '--kind', 'drill', '--variants');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--variants scaffolds a take-home or a lab; a drill has no variants');
    await expect(readFile(path.join(root, 'packets/drill-x/prompt.mdx'))).rejects.toThrow();
  });

  it('scaffolds a lab whose limit reaches its starter, a suggestion, the visible and the hidden tests, and it checks clean', async () => {
    const made = await cli('new', 'slug-limits', '--kind', 'lab', '--variants');
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('It has 3 variants');
    const dir = path.join(root, 'packets/slug-limits');
    const prompt = await readFile(path.join(dir, 'prompt.mdx'), 'utf8');
    expect(prompt).toContain(`variants:\n  count: 3\n  params:\n    limit: { pick: [${LAB_VARIANT_SCAFFOLD.pick.join(', ')}] }\n`);
    for (const file of ['starter/src/slug.py', 'starter/README.md', 'starter/tests/test_slug.py', 'hidden/tests/test_hidden_slug.py', 'assistant.mdx']) {
      expect(await readFile(path.join(dir, file), 'utf8'), file).toContain('[[variant.limit]]');
    }
    const checked = await cli('check', '--format', 'json');
    expect(checked.code, checked.stdout).toBe(0);
    expect(JSON.parse(checked.stdout).diagnostics).toEqual([]);
    const loaded = await loadPackets({ packetsDir: 'packets', cwd: root });
    const packet = codePackets(loaded.packets)[0]!;
    expect(packet.kind).toBe('lab');
    const variants = (await packetVariants(packet, async (rel) => new Uint8Array(await readFile(path.join(root, packet.dir, rel))))).map((r) => r.variant!);
    expect(variants.map((v) => v.values.limit).sort()).toEqual([...LAB_VARIANT_SCAFFOLD.pick].sort());
    for (const v of variants) {
      const lab = v.packet.kind === 'lab' ? v.packet.lab! : undefined;
      expect(lab?.suggestions.find((s) => s.id === 'length-cut')?.ask).toBe(`Cap the slug at MAX_LENGTH (${v.values.limit}) characters.`);
      expect(new TextDecoder().decode(v.files.get('starter/src/slug.py'))).toContain(`MAX_LENGTH = ${v.values.limit}\n`);
    }
  });
});
