import { execFileSync } from 'node:child_process';
import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { zipSizeProblem } from '../../../src/bundle/build-zips.ts';
import { checkPackets } from '../../../src/check/check-packets.ts';
import type { Diagnostic } from '../../../src/errors/diagnostic.ts';
import { MIB } from '../../../src/packets/file-limits.ts';
import { escapedName } from '../../../src/packets/fs-source.ts';
import { loadPackets } from '../../../src/packets/load.ts';
import { codePackets } from '../../../src/packets/packet.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';

/**
 * Hostile files in a packet folder, generated here (nothing large is committed): names that are
 * not UTF-8, trees too deep, sparse files of gigabytes, pipes, files and zips over the limits.
 * Each is an error of its own packet at its file, and every other packet loads as if it were not there.
 */

let t: TempPackets;
beforeEach(async () => {
  t = await tempPackets();
});
afterEach(async () => {
  await t.dispose();
});

const load = () => loadPackets({ packetsDir: 'packets', cwd: t.root });
const codes = (list: readonly Diagnostic[], prefix: string) => list.filter((d) => d.file.startsWith(prefix)).map((d) => `${d.code} ${d.file}`);

/** A sparse file of `bytes` (no block of it written). */
async function sparse(file: string, bytes: number): Promise<void> {
  const fh = await open(file, 'w');
  await fh.truncate(bytes);
  await fh.close();
}

/** Add a `limits` map to a packet's prompt frontmatter. */
const withLimits = (folder: string, yaml: string) => t.edit(folder, 'prompt.mdx', 'changelog:', `limits:\n${yaml}\nchangelog:`);

describe('a hostile file is an error of its own packet', () => {
  it('names a file whose name is not UTF-8, escaped, and reads the rest of the packet and the others', async () => {
    await t.add('good');
    const bad = await t.add('bad');
    await writeFile(Buffer.concat([Buffer.from(path.join(bad, 'starter', 'data')), Buffer.from([0xff, 0x0a]), Buffer.from('.py')]), 'x = 1\n');
    await mkdir(Buffer.concat([Buffer.from(path.join(t.packets, 'odd')), Buffer.from([0xfe])]));
    const { packets, diagnostics } = await load();
    expect(packets.map((p) => p.id)).toEqual(['bad', 'good']);
    expect(codes(diagnostics, 'packets/').sort()).toEqual(['PK140 packets/bad/starter/data\\xFF\\n.py', 'PK140 packets/odd\\xFE']);
    expect(diagnostics.find((d) => d.file.startsWith('packets/bad'))!.message).toContain('"starter/data\\xFF\\n.py" is not valid UTF-8');
    // A folder whose name is not UTF-8 has no id: checking named packets does not mention it.
    expect(codes((await loadPackets({ packetsDir: 'packets', cwd: t.root, ids: ['good'] })).diagnostics, 'packets/')).toEqual([]);
  });

  it('shows each byte that is not UTF-8 as \\xNN and keeps the valid characters around it', () => {
    expect(escapedName(Buffer.from([0x61, 0xe2, 0x82, 0xac, 0xe2, 0x82, 0x62, 0xc0, 0xaf, 0x1b]))).toBe('a€\\xE2\\x82b\\xC0\\xAF\\u001b');
  });

  it('stops at a tree 1,500 folders deep and at a path over 1,024 bytes, and reads the files beside them', async () => {
    await t.add('good');
    const bad = await t.add('bad');
    // Made 100 folders at a time from inside the last, as no single path of it fits in PATH_MAX;
    // removed by rm(1), which walks a tree of any depth.
    const starter = path.join(bad, 'starter');
    execFileSync('bash', ['-c', 'cd "$1" && p=$(printf "d/%.0s" $(seq 100)) && for i in $(seq 15); do mkdir -p "$p" && cd "$p"; done && echo x > leaf.py', 'deep', starter]);
    onTestFinished(() => void execFileSync('rm', ['-rf', path.join(starter, 'd')]));
    let long = path.join(bad, 'hidden');
    for (let i = 0; i < 5; i++) await mkdir((long = path.join(long, `${'n'.repeat(240)}${i}`)));
    await writeFile(path.join(long, 'test_x.py'), 'pass\n');
    const { packets, diagnostics } = await load();
    expect(packets.map((p) => p.id)).toEqual(['bad', 'good']);
    const deep = diagnostics.filter((d) => d.code === 'PK141');
    expect(deep.map((d) => d.file)).toEqual([`packets/bad/hidden/${'n'.repeat(240)}0/${'n'.repeat(240)}1/${'n'.repeat(240)}2/${'n'.repeat(240)}3`, `packets/bad/starter/${'d/'.repeat(31)}d`]);
    expect(deep.map((d) => d.message.split('"')[2]!.split(',')[0])).toEqual([' holds a path longer than 1024 bytes', ' is more than 32 folders deep']);
    expect(codes(diagnostics, 'packets/good')).toEqual([]);
    expect(packets.find((p) => p.id === 'bad')!.entries.some((e) => e.path === 'starter/src/duration.py')).toBe(true);
  });

  it('never reads a sparse 3 GiB file: its size is checked first', async () => {
    await t.add('good');
    const bad = await t.add('bad');
    await sparse(path.join(bad, 'starter', 'huge.bin'), 3 * 1024 * MIB);
    const { packets, diagnostics } = await load();
    expect(packets.map((p) => p.id)).toEqual(['bad', 'good']);
    expect(codes(diagnostics, 'packets/')).toEqual(['PK143 packets/bad/starter/huge.bin']);
    expect(diagnostics[0]!.message).toMatchInlineSnapshot(
      `""starter/huge.bin" is 3.0 GiB, over the 256.0 MiB the kit reads of a file of this sort, so it is not read at all (no packet can raise this limit)."`,
    );
  });

  it('names a pipe as not a regular file without opening it for a read that would wait forever', async () => {
    await t.add('good');
    const bad = await t.add('bad');
    execFileSync('mkfifo', [path.join(bad, 'starter', 'pipe')]);
    const { diagnostics } = await load();
    expect(codes(diagnostics, 'packets/')).toEqual(['PK117 packets/bad/starter/pipe']);
    expect(diagnostics[0]!.message).toContain('not a regular file');
  });

  it('does not read a part file over 1 MiB, and does not call it missing', async () => {
    await t.add('good');
    await t.add('bad');
    await t.edit('bad', 'rubric.mdx', '---\n', `---\n# ${'x'.repeat(MIB)}\n`);
    const { packets, diagnostics } = await load();
    expect(packets.map((p) => p.id)).toEqual(['good']);
    expect(codes(diagnostics, 'packets/')).toEqual(['PK143 packets/bad/rubric.mdx']);
  });
});

describe('limits are errors, with a reason to raise them', () => {
  it('fails a tree file over 10 MiB, and takes it when the prompt raises limits.fileMb with a reason', async () => {
    await t.add('good');
    const bad = await t.add('bad');
    await sparse(path.join(bad, 'starter', 'fixture.bin'), 10 * MIB + 1);
    let { diagnostics } = await load();
    expect(codes(diagnostics, 'packets/')).toEqual(['PK142 packets/bad/starter/fixture.bin']);
    expect(diagnostics[0]!.severity).toBe('error');
    expect(diagnostics[0]!.message).toContain('is 10.0 MiB (10,485,761 bytes), over the limit of 10.0 MiB for a file of a packet');

    await withLimits('bad', '  fileMb: 11\n  reason: too big');
    ({ diagnostics } = await load());
    expect(codes(diagnostics, 'packets/')).toEqual(['PK107 packets/bad/prompt.mdx']);
    expect(diagnostics[0]!.message).toContain('at least 20 characters');

    await t.edit('bad', 'prompt.mdx', 'reason: too big', 'reason: The parser is judged on a recorded 10 MiB trace.');
    ({ diagnostics } = await load());
    expect(codes(diagnostics, 'packets/')).toEqual([]);

    await sparse(path.join(bad, 'starter', 'fixture.bin'), 11 * MIB + 1);
    ({ diagnostics } = await load());
    expect(codes(diagnostics, 'packets/')).toEqual(['PK142 packets/bad/starter/fixture.bin']);
    expect(diagnostics[0]!.message).toContain('this packet (its `limits.fileMb`)');
  });

  it('refuses a limit above the kit maximum', async () => {
    await t.add('p');
    await withLimits('p', '  fileMb: 300\n  zipMb: 2048\n  reason: The fixture is a recorded trace of a real service.');
    const { diagnostics } = await load();
    expect(diagnostics.map((d) => `${d.code} ${d.message.split('; ')[1]}`)).toEqual([
      'PK107 the kit never reads a file over 256 MiB (its own maximum)',
      'PK107 the kit never builds a candidate zip over 1024 MiB (its own maximum).',
    ]);
  });

  it('fails a candidate zip over 50 MiB, or over the zipMb the prompt raised it to', async () => {
    await t.add('p');
    let [packet] = codePackets((await load()).packets);
    const zip = { name: 'p-0.1.0.zip', bytes: new Uint8Array(50 * MIB + 1) };
    const d = zipSizeProblem(packet!, zip)!;
    expect(`${d.code} ${d.file} ${d.severity}`).toBe('PK325 packets/p/prompt.mdx error');
    expect(d.message).toContain('p-0.1.0.zip is 50.0 MiB, over the limit of 50.0 MiB for a packet');
    expect(zipSizeProblem(packet!, { ...zip, bytes: new Uint8Array(50 * MIB) })).toBeUndefined();

    await withLimits('p', '  zipMb: 60\n  reason: The starter ships a recorded 55 MiB trace.');
    [packet] = codePackets((await load()).packets);
    expect(zipSizeProblem(packet!, zip)).toBeUndefined();
    const over = zipSizeProblem(packet!, { ...zip, bytes: new Uint8Array(60 * MIB + 1) })!;
    expect([over.code, over.line]).toEqual(['PK325', await t.lineOf('p', 'prompt.mdx', 'zipMb: 60')]);
  });

  it('counts a one-line prompt of a single huge word as the words it would take (PK201), an error', async () => {
    await t.add('good');
    await t.add('bad');
    await t.edit('bad', 'prompt.mdx', '## Hard limits', `${'a'.repeat(500_000)}\n\n## Hard limits`);
    const { diagnostics } = await checkPackets({ packetsDir: 'packets', cwd: t.root, lint: true, outDir: 'dist' });
    const long = diagnostics.filter((d) => d.code === 'PK201');
    expect(long.map((d) => `${d.file} ${d.severity}`)).toEqual(['packets/bad/prompt.mdx error']);
    expect(long[0]!.message).toMatch(/^The prompt body is 12\d{3} words/);
    expect(codes(diagnostics, 'packets/good')).toEqual([]);
  });
});
