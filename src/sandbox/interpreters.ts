import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { chmod, mkdtemp, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SandboxMounts } from './types.ts';

/** What a probe run printed and how it ended. */
export interface ProbeOutput {
  /** Everything on stdout. */
  stdout: string;
  /** Everything on stderr. */
  stderr: string;
  /** Exit status, `null` if it did not exit normally or did not start. */
  exitCode: number | null;
}

/** Everything interpreter resolution needs from the outside world. Nothing is read implicitly. */
export interface InterpreterContext {
  /** The host `PATH` to search (e.g. `process.env.PATH`). */
  searchPath: string;
  /** Environment for running the interpreter once on the host (version managers such as pyenv read theirs). */
  env: Readonly<Record<string, string | undefined>>;
  /** Directory in which to create the shim directory (e.g. `os.tmpdir()`). */
  tmpDir: string;
  /** Finds an executable by name on a `PATH`; default `findExecutable`. */
  which?: (name: string, searchPath: string) => string | null;
  /** Runs a program and collects its output; default spawns it with a 30 s limit. */
  runProbe?: (file: string, args: readonly string[], env: Readonly<Record<string, string>>) => Promise<ProbeOutput>;
}

/** The real Python interpreter behind whatever `python3` on the host `PATH` is (often a slow shim). */
export interface PythonInterpreter {
  /** Real path of the interpreter binary, symlinks and version-manager shims resolved. */
  executable: string;
  /** `sys.version` on one line, e.g. `3.11.7 (main, ...) [GCC 12.2.0]`; part of cache keys. */
  version: string;
  /** Install prefixes and import paths (stdlib, site-packages) the interpreter reads; no user site. */
  libraryPaths: readonly string[];
  /** Directory holding `python3` and `python` symlinks to `executable`. */
  shimDir: string;
  /** The interpreter's own `bin` directory (console scripts such as `pytest`). */
  binDir: string;
  /**
   * What a sandbox run needs to use this interpreter: `PATH` starts with the shim directory,
   * then `binDir`; the install prefix and import paths are visible read-only. Spread into a
   * `RunSpec`.
   */
  mounts: SandboxMounts;
}

/** Interpreter resolution failed; the message says what was tried. */
export interface InterpreterProblem {
  error: string;
}

/** Resolves interpreters once and keeps the answers for the life of the resolver. */
export interface InterpreterResolver {
  /** The real Python 3, resolved on the first call; later calls return the same answer. */
  python(): Promise<PythonInterpreter | InterpreterProblem>;
  /** Removes the shim directory, if one was made. */
  dispose(): Promise<void>;
}

const PROBE_SCRIPT = [
  'import json, os, sys',
  'paths = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]',
  'paths += [p for p in sys.path if p and os.path.exists(p)]',
  'print(json.dumps({"executable": os.path.realpath(sys.executable), "version": sys.version,',
  '  "paths": sorted({os.path.realpath(p) for p in paths})}))',
].join('\n');

/**
 * Makes a resolver. Create one per process and share it: the first `python()` call runs the
 * host interpreter once (through a pyenv shim that is ~330 ms); every later call is free.
 */
export function createInterpreterResolver(context: InterpreterContext): InterpreterResolver {
  let python: Promise<PythonInterpreter | InterpreterProblem> | null = null;
  return {
    python() {
      python ??= resolvePython(context);
      return python;
    },
    async dispose() {
      const resolved = await python;
      if (resolved && 'shimDir' in resolved) await rm(resolved.shimDir, { recursive: true, force: true });
    },
  };
}

/** Finds an executable regular file called `name` in the directories of `searchPath`. */
export function findExecutable(name: string, searchPath: string): string | null {
  for (const dir of searchPath.split(':')) {
    if (!dir.startsWith('/')) continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}

async function resolvePython(context: InterpreterContext): Promise<PythonInterpreter | InterpreterProblem> {
  const which = context.which ?? findExecutable;
  const found = which('python3', context.searchPath) ?? which('python', context.searchPath);
  if (found === null) return { error: `no python3 or python on PATH (${context.searchPath})` };
  const env = definedOnly(context.env);
  // -E ignores PYTHONPATH and friends and -s the user site, as they are ignored inside the sandbox.
  const probe = await (context.runProbe ?? runProgram)(found, ['-E', '-s', '-c', PROBE_SCRIPT], env);
  if (probe.exitCode !== 0) {
    return { error: `${found} failed to report its real path (exit ${probe.exitCode}): ${probe.stderr.trim()}` };
  }
  let parsed: { executable?: unknown; version?: unknown; paths?: unknown };
  try {
    parsed = JSON.parse(probe.stdout.trim().split('\n').at(-1) ?? '') as typeof parsed;
  } catch {
    return { error: `${found} printed something other than the expected JSON: ${probe.stdout.slice(0, 200)}` };
  }
  const { executable, version, paths } = parsed;
  if (typeof executable !== 'string' || typeof version !== 'string' || !isStringArray(paths)) {
    return { error: `${found} reported an incomplete answer: ${probe.stdout.slice(0, 200)}` };
  }
  const binDir = dirname(executable);
  const libraryPaths = outermost([...paths, binDir]);
  const shimDir = await mkdtemp(join(context.tmpDir, 'packet-kit-python-'));
  // Two links and nothing else: the sandbox's unprivileged uid must be able to look them up.
  await chmod(shimDir, 0o755);
  await symlink(executable, join(shimDir, 'python3'));
  await symlink(executable, join(shimDir, 'python'));
  return {
    executable,
    version: version.replace(/\s+/g, ' ').trim(),
    libraryPaths,
    shimDir,
    binDir,
    mounts: { pathPrepend: [shimDir, binDir], readOnlyPaths: libraryPaths },
  };
}

/** Drops every path that lies inside another one in the list. */
function outermost(paths: readonly string[]): string[] {
  const sorted = [...new Set(paths)].sort();
  const kept: string[] = [];
  for (const path of sorted) {
    if (!kept.some((parent) => path === parent || path.startsWith(parent.endsWith('/') ? parent : `${parent}/`))) {
      kept.push(path);
    }
  }
  return kept;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) result[name] = value;
  return result;
}

function runProgram(file: string, args: readonly string[], env: Readonly<Record<string, string>>): Promise<ProbeOutput> {
  return new Promise((resolve) => {
    const child = spawn(file, [...args], { env: { ...env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error) => resolve({ stdout: '', stderr: error.message, exitCode: null }));
    child.on('close', (exitCode) =>
      resolve({
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        exitCode,
      }),
    );
  });
}
