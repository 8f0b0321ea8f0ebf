/**
 * The Python harness program: the kit's harness.py and screen.py, compiled by the interpreter
 * the sandbox runs, and the bootstrap that starts the interpreter on them. Both Python runners
 * (unittest and pytest, see ../runners/) run under it; harness.py reads the runner's name from
 * the manifest's `style`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** The harness's inputs for a sandbox whose PATH starts with `pathPrepend`: compiled by the `python3` found first there, if any. */
export function pythonHarnessInputs(pathPrepend: readonly string[]): Buffer[] {
  const shim = pathPrepend.map((dir) => path.join(dir, 'python3')).find((p) => existsSync(p));
  const { harness, screen } = harnessInputs(shim);
  return [harness, screen];
}
