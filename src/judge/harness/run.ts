/**
 * One run of the trusted harness in the sandbox: the kit starts the interpreter itself
 * (no user site, no bytecode written) on a bootstrap that reads the harness, the screen, the
 * manifest and a fresh key from private pipes, and collects the sealed record from a pipe of
 * its own. The packet's test command is read for its runner and its options only: what runs is
 * always the harness.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { capsToRunSpec } from '../../sandbox/caps.ts';
import type { RunEvidence } from '../judge.ts';
import { runEvidence, type TestRunner } from '../run-tests.ts';
import { moduleName, type RunnerStyle } from '../test-ids.ts';
import { harnessKey, readRecord, type HarnessRecord } from './record.ts';

/** The record may hold this many bytes; a run that writes more is cut, and a cut record is broken. */
export const RECORD_LIMIT_BYTES = 4 * 1024 * 1024;

/** A test module the harness loads from the kit's copy (held-out tests and canaries never touch the disk). */
export interface HarnessTestSource {
  /** Path relative to the workspace. */
  file: string;
  /** The text to run: the packet's file, with its canary appended. */
  source: string;
}

/** What the harness is told for one run. */
export interface HarnessPlan {
  style: RunnerStyle;
  /** The packet's test command (its `-t`/`-s` for unittest, its arguments for pytest). */
  command: string;
  /** unittest: the test modules, in load order. pytest reads its files from the disk. */
  tests: readonly HarnessTestSource[];
  /** The packet's protected files and held-out tests: code there is the packet's own. */
  trusted: readonly string[];
  /** The candidate's changed Python files, for the screen. */
  screen: readonly string[];
  /** Primitives the packet allows its candidates (`workspace.allowPrimitives`). */
  allow: readonly string[];
}

/** A harness run: the sandbox's view of the process, and the record. */
export interface HarnessEvidence {
  run: RunEvidence;
  record: HarnessRecord;
}

let sources: { harness: Buffer; screen: Buffer } | null = null;

/** The harness and the screen, read once from the kit. */
export function harnessSources(): { harness: Buffer; screen: Buffer } {
  sources ??= {
    harness: readFileSync(fileURLToPath(new URL('./harness.py', import.meta.url))),
    screen: readFileSync(fileURLToPath(new URL('./screen.py', import.meta.url))),
  };
  return sources;
}

/** Compiles both sources and prints their code objects, marshalled, as base64 JSON. */
const COMPILE_SCRIPT = [
  'import base64, json, marshal, sys',
  'src = json.load(sys.stdin)',
  'out = {k: base64.b64encode(marshal.dumps(compile(v, "/packet-kit/%s.py" % k, "exec"))).decode() for k, v in src.items()}',
  'print(json.dumps(out))',
].join('\n');

const compiled = new Map<string, { harness: Buffer; screen: Buffer }>();

/**
 * What the harness run is handed: each part a one-byte tag and its body, `M` a code object
 * marshalled by the very interpreter the sandbox runs (compiled once per interpreter, on the host,
 * from the kit's own files: about 30 ms a run saved), or `S` the source where that could not be done.
 */
export function harnessInputs(python: string | undefined): { harness: Buffer; screen: Buffer } {
  const src = harnessSources();
  const tagged = (tag: string, body: Buffer) => Buffer.concat([Buffer.from(tag, 'ascii'), body]);
  if (python) {
    const known = compiled.get(python);
    if (known) return known;
    const run = spawnSync(python, ['-s', '-B', '-c', COMPILE_SCRIPT], { input: JSON.stringify({ harness: src.harness.toString('utf8'), screen: src.screen.toString('utf8') }), env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' }, timeout: 30_000, maxBuffer: 16 * 1024 * 1024 });
    if (run.status === 0) {
      try {
        const out = JSON.parse(run.stdout.toString('utf8')) as { harness: string; screen: string };
        const entry = { harness: tagged('M', Buffer.from(out.harness, 'base64')), screen: tagged('M', Buffer.from(out.screen, 'base64')) };
        compiled.set(python, entry);
        return entry;
      } catch {
        // Fall through to the sources.
      }
    }
  }
  return { harness: tagged('S', src.harness), screen: tagged('S', src.screen) };
}

/**
 * The bootstrap (`python3 -s -B -c ...`, no user site, no bytecode written; the environment is the sandbox's own, cleared, so the kit's PYTHONHASHSEED holds): read the pipes named in PACKET_KIT_FDS, run the
 * harness. Everything it reads stays in the locals of `_go`; the key is handed on and dropped.
 */
export const BOOTSTRAP = [
  'import os',
  'def _go():',
  '    def read(fd):',
  '        out = []',
  '        while True:',
  '            b = os.read(fd, 65536)',
  '            if not b:',
  '                break',
  '            out.append(b)',
  '        os.close(fd)',
  '        return b"".join(out)',
  '    fds = [int(x) for x in os.environ["PACKET_KIT_FDS"].split(",")]',
  '    def code(data, name):',
  '        if data[:1] == b"M":',
  '            import marshal',
  '            return marshal.loads(data[1:])',
  '        return compile(data[1:], name, "exec")',
  '    ns = {"__name__": "__packet_kit_harness__"}',
  '    exec(code(read(fds[0]), "/packet-kit/harness.py"), ns)',
  '    screen = code(read(fds[1]), "/packet-kit/screen.py")',
  '    import json',
  '    manifest = json.loads(read(fds[2]))',
  '    box = [read(fds[3])]',
  '    return ns.pop("_harness")(manifest, box.pop(), fds[4], screen)',
  'raise SystemExit(_go())',
].join('\n');

/** The harness command line: the interpreter on PATH, on the bootstrap. */
export const HARNESS_COMMAND = `exec python3 -s -B -c '${BOOTSTRAP}'`;

/** The unittest top-level directory of a command: `-t DIR`, else `-s DIR`, else `.`. */
export function unittestTop(command: string): string {
  const words = command.split(/\s+/);
  const flag = (names: string[]) => {
    const at = words.findIndex((w) => names.includes(w));
    return at >= 0 ? words[at + 1] : undefined;
  };
  const top = flag(['-t', '--top-level-directory']) ?? flag(['-s', '--start-directory']) ?? '.';
  return top.replace(/^\.\/+/, '').replace(/\/+$/, '') || '.';
}

/** The arguments a pytest command passes after `pytest`. */
export function pytestArgs(command: string): string[] {
  const words = command.trim().split(/\s+/);
  const at = words.findIndex((w) => /(^|\/)pytest$/.test(w));
  return at >= 0 ? words.slice(at + 1) : [];
}

function relativeTo(top: string, file: string): string {
  return top === '.' ? file : file.startsWith(`${top}/`) ? file.slice(top.length + 1) : file;
}

/** The manifest the harness reads. */
export function harnessManifest(plan: HarnessPlan): Record<string, unknown> {
  const top = plan.style === 'unittest' ? unittestTop(plan.command) : '.';
  return {
    style: plan.style,
    top,
    protected: [...plan.trusted].sort(),
    tests: plan.style === 'unittest' ? plan.tests.map((t) => ({ file: t.file, module: moduleName(relativeTo(top, t.file)), source: t.source })) : [],
    screen: { files: [...plan.screen].sort(), allow: [...plan.allow].sort() },
    pytestArgs: plan.style === 'pytest' ? pytestArgs(plan.command) : [],
  };
}

/** Run the harness in `workdir` with `readOnly` paths bound read-only. Never throws. */
export async function runHarness(runner: TestRunner, workdir: string, plan: HarnessPlan, readOnly: readonly string[] = []): Promise<HarnessEvidence> {
  const key = harnessKey();
  const shim = runner.mounts.pathPrepend.map((dir) => path.join(dir, 'python3')).find((p) => existsSync(p));
  const { harness, screen } = harnessInputs(shim);
  const result = await runner.sandbox.run({
    workdir,
    command: HARNESS_COMMAND,
    timeoutMs: runner.timeoutMs,
    pathPrepend: runner.mounts.pathPrepend,
    readOnlyPaths: runner.mounts.readOnlyPaths,
    readOnlyInWorkdir: readOnly,
    env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1', PYTHONUNBUFFERED: '1' },
    channels: { inputs: [harness, screen, Buffer.from(JSON.stringify(harnessManifest(plan)), 'utf8'), key], recordLimitBytes: RECORD_LIMIT_BYTES },
    ...capsToRunSpec(runner.caps),
  });
  const run = runEvidence(result, runner.timeoutMs);
  return { run, record: readRecord(result.record ?? '', key, result.recordTruncated === true) };
}
