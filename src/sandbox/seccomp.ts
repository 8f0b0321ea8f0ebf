/**
 * The sandbox's seccomp filter (`seccomp/filter.c` says what it denies and why), as the
 * classic BPF program bwrap loads with `--seccomp FD`.
 *
 * It is built by a small C program against Debian's libseccomp rather than written here as
 * BPF or taken from Python's seccomp bindings: libseccomp is the library bubblewrap's own
 * users (Flatpak) and container runtimes build their filters with, it holds the syscall
 * numbers of every architecture and the architecture check, and a C compiler is on every
 * machine the kit runs on, whereas the bindings would tie the filter to Debian's python3
 * when the packets may run on another. The program is compiled once per source and
 * architecture and only its output, under 1 KiB, is kept, in `cacheDir/<hash>/filter.bpf`.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What building the filter needs from the outside world. */
export interface SeccompBuildOptions {
  /** The C compiler (`cc`), or `null` when there is none. */
  ccPath: string | null;
  /** Where built filters are kept, one folder per source and architecture. */
  cacheDir: string;
  /** `process.arch`: part of the cache key, since syscall numbers differ by architecture. */
  arch: string;
}

/** What to install when the filter cannot be built. */
const INSTALL = 'install gcc and libseccomp-dev (Debian: apt-get install gcc libseccomp-dev; scripts/setup.sh does)';

/**
 * The filter program, from the cache or built now; or an error message saying why it could
 * not be built. Never throws.
 */
export async function buildSeccompFilter(options: SeccompBuildOptions): Promise<Uint8Array | string> {
  const source = await readFile(new URL('./seccomp/filter.c', import.meta.url));
  const key = createHash('sha256').update(source).update('\0').update(options.arch).digest('hex').slice(0, 16);
  const cached = join(options.cacheDir, key, 'filter.bpf');
  try {
    const bytes = await readFile(cached);
    if (isProgram(bytes)) return bytes;
  } catch {
    // Not built yet.
  }
  if (options.ccPath === null) return `no C compiler (cc) was found to build the sandbox's seccomp filter; ${INSTALL}`;
  let work: string | undefined;
  try {
    await mkdir(options.cacheDir, { recursive: true });
    work = await mkdtemp(join(options.cacheDir, 'build-'));
    await writeFile(join(work, 'filter.c'), source);
    const built = await run(options.ccPath, ['-O2', '-o', join(work, 'filter'), join(work, 'filter.c'), '-lseccomp']);
    if (built.code !== 0) {
      const text = built.stderr.toString('utf8').trim();
      const why = /seccomp\.h|-lseccomp/.test(text) ? "libseccomp's development files (seccomp.h, libseccomp.so) are missing" : `${options.ccPath} failed: ${text.split('\n').slice(0, 3).join(' ')}`;
      return `the sandbox's seccomp filter could not be built: ${why}; ${INSTALL}`;
    }
    const exported = await run(join(work, 'filter'), []);
    if (exported.code !== 0 || !isProgram(exported.stdout)) {
      return `the sandbox's seccomp filter could not be built: its program exited with ${exported.code}: ${exported.stderr.toString('utf8').trim()}`;
    }
    await mkdir(join(options.cacheDir, key), { recursive: true });
    await writeFile(join(work, 'filter.bpf'), exported.stdout);
    await rename(join(work, 'filter.bpf'), cached);
    return exported.stdout;
  } catch (error) {
    return `the sandbox's seccomp filter could not be built: ${(error as Error).message}`;
  } finally {
    if (work) await rm(work, { recursive: true, force: true });
  }
}

/** A classic BPF program: whole 8-byte instructions, at least one, at most the kernel's 4096. */
function isProgram(bytes: Uint8Array): boolean {
  return bytes.length > 0 && bytes.length % 8 === 0 && bytes.length <= 4096 * 8;
}

function run(file: string, args: string[]): Promise<{ code: number | null; stdout: Buffer; stderr: Buffer }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env: { PATH: '/usr/local/bin:/usr/bin:/bin' }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => resolve({ code: null, stdout: Buffer.alloc(0), stderr: Buffer.from(error.message) }));
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
  });
}
