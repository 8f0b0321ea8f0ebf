import { describe, expect, it } from 'vitest';
import { COMMAND_SPECS } from '../../../src/cli/command-specs.ts';
import { flagSynopsis, helpText } from '../../../src/cli/flags.ts';
import { memoryIo } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/run-cli.ts';

describe('the CLI help', () => {
  it('answers --help and -h on every command with the text made from its flag definitions', async () => {
    for (const spec of COMMAND_SPECS) {
      for (const flag of ['--help', '-h']) {
        const io = memoryIo(process.cwd());
        expect(await runCli([spec.name, flag], io), `${spec.name} ${flag}`).toBe(0);
        expect(io.stderr).toBe('');
        expect(io.stdout.startsWith(helpText(spec).trimEnd().split('\n\nExit:')[0]!.split('\n\nOptions:')[0]!), spec.name).toBe(true);
        for (const [name, f] of Object.entries(spec.flags)) expect(io.stdout, `${spec.name} ${name}`).toContain(flagSynopsis(name, f));
      }
    }
  });

  it('lists every command in `packet --help`', async () => {
    const io = memoryIo(process.cwd());
    expect(await runCli(['--help'], io)).toBe(0);
    for (const spec of COMMAND_SPECS) expect(io.stdout).toContain(`  ${spec.name.padEnd(14)} ${spec.summary}`);
  });

  it('refuses an unknown flag, a value outside its choices and a stray argument with exit 2', async () => {
    for (const args of [['check', '--nope'], ['check', '--format', 'xml'], ['serve-model', 'extra'], ['explain', '--verbose']]) {
      const io = memoryIo(process.cwd());
      expect(await runCli(args, io), args.join(' ')).toBe(2);
      expect(io.stderr).toContain(`Run "packet ${args[0]} --help" for its options.`);
    }
  });
});

describe('an internal error', () => {
  it('prints one line with a code and the path of the details, never a stack trace', async () => {
    const { mkdtemp, readFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = await mkdtemp(path.join(tmpdir(), 'packet-kit-crash-'));
    try {
      // An output stream that throws an error of no errno: nothing the command expects, so no diagnostic covers it.
      const base = memoryIo(dir, { env: { PACKET_KIT_ERROR_DIR: dir } });
      const io = { ...base, out: () => { throw new Error('the output stream broke'); } };
      const code = await runCli(['explain', 'PK101'], io);
      expect(code).toBe(70);
      expect(base.stderr).toMatch(/^PK901 packet explain stopped on an internal error \(Error: the output stream broke\); the details are in (\S+)\.\n  hint: /);
      expect(base.stderr).not.toMatch(/\n\s+at /);
      const report = /the details are in (\S+)\./.exec(base.stderr)![1]!;
      expect(report.startsWith(dir)).toBe(true);
      expect(await readFile(report, 'utf8')).toMatch(/packet explain PK101\n[^]*\n\s+at /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
