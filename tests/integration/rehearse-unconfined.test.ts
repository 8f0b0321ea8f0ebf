import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { tempPackets, type TempPackets } from '../support/packet-fixtures.ts';

describe('packet rehearse without bubblewrap', () => {
  let t: TempPackets;
  beforeAll(async () => {
    t = await tempPackets();
    await t.add('healthy');
  });
  afterAll(() => t.dispose());
  const noBwrap = () => ({ ...process.env, PACKET_KIT_BWRAP: '/nonexistent/bwrap' });

  it('refuses to run, says why and what to do, and exits 2', async () => {
    const io = memoryIo(t.root, { env: noBwrap() });
    expect(await runCli(['rehearse', '--no-cache', '--report', 'r.json'], io)).toBe(2);
    expect(io.stderr).toContain('PK401');
    expect(io.stderr).toMatch(/Refusing to run untrusted code/);
    expect(io.stderr).toMatch(/--unconfined/);
  });

  it('runs the author\'s own trees with --unconfined, and the report says so', async () => {
    const io = memoryIo(t.root, { env: noBwrap() });
    expect(await runCli(['rehearse', '--no-cache', '--unconfined', '--report', 'r.json'], io)).toBe(0);
    const report = JSON.parse(await readFile(path.join(t.root, 'r.json'), 'utf8'));
    expect(report.sandbox.kind).toBe('unconfined');
    expect(report.sandbox.notice).toMatch(/UNCONFINED/);
    expect(io.stdout).toMatch(/note: Running UNCONFINED/);
  });

  it('rehearses an unchanged packet from the cache', async () => {
    const first = memoryIo(t.root, { env: process.env });
    expect(await runCli(['rehearse', '--report', 'r.json'], first)).toBe(0);
    const second = memoryIo(t.root, { env: process.env });
    expect(await runCli(['rehearse', '--report', 'r.json'], second)).toBe(0);
    expect(second.stdout).toMatch(/\(1 cached\)/);
    await t.edit('healthy', 'starter/src/duration.py', 'return None', 'return None  # edited');
    const third = memoryIo(t.root, { env: process.env });
    expect(await runCli(['rehearse', '--report', 'r.json'], third)).toBe(0);
    expect(third.stdout).toMatch(/\(0 cached\)/);
  });
});
