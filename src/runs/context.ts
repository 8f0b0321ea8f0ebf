/**
 * One run context for every run of untrusted code (rehearse, grade, mutate, the labs' tables,
 * the build): the sandbox (bubblewrap, or unconfined when `--unconfined` allows it), made once
 * when first needed inside a scratch root the run owns (removed by `dispose`, on Ctrl-C or
 * SIGTERM, or by a later run when this one is killed: src/sandbox/scratch.ts); the model, the
 * endpoint and the key (src/runs/model-endpoint.ts) with the key kept out of every line printed;
 * the budget the flags set; the embedded scripted endpoint when one is needed; and `dispose`,
 * which closes and removes all of it.
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { diagnose, Errors } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { fsFault } from '../errors/fs-fault.ts';
import { ModelErrors } from '../errors/model-catalog.ts';
import type { TestRunner } from '../judge/run-tests.ts';
import { labTables, type LabTables } from '../labs/table-cache.ts';
import { effectiveBudget, type BudgetLimits } from '../llm/budget.ts';
import { replyStoreFromDirs, startScriptedServer, type ScriptedServer } from '../llm/scripted-server.ts';
import type { SandboxCaps } from '../sandbox/caps.ts';
import { createScratchRoot, type ScratchRoot } from '../sandbox/scratch.ts';
import { prepareRunEnvironment, type RunEnvironment } from './environment.ts';
import { resolveModelEndpoint, type LiveEndpoint, type ModelFlags } from './model-endpoint.ts';
import type { RunMessages } from './reporter.ts';
import { createSecrets, type RunSecrets } from './secrets.ts';

/** The outside world a run is started from (the CLI passes its io). */
export interface RunHost {
  /** The environment: PATH, PACKET_KIT_BWRAP, the endpoint and key variables. */
  env: Readonly<Record<string, string | undefined>>;
  /** The working directory flags are relative to. */
  cwd: string;
  /** The wall clock, for reports' dates. */
  now(): Date;
  /** The secrets of the run; the key is added when resolved. Default: a list of its own. */
  secrets?: RunSecrets;
  /** Where the scratch root is made; default `os.tmpdir()`. */
  tmpDir?: string;
  /** Makes the sandbox; default {@link prepareRunEnvironment} (tests pass a fake). */
  prepareSandbox?: typeof prepareRunEnvironment;
}

/** What a run context is opened with. */
export interface RunContextOptions {
  /** `--unconfined`: run without isolation where bubblewrap is unusable. */
  unconfined: boolean;
  /** The packets folder, as given: where a sandbox that cannot start is reported. */
  packets: string;
  /** The model flags of a run that calls a model; absent for one that does not (grade, build). */
  model?: ModelFlags;
  /** The budget the flags set (each packet's own budget caps it). */
  budget?: Partial<BudgetLimits>;
}

/** The sandbox of a run, ready, in its scratch root. */
export interface ReadySandbox {
  environment: RunEnvironment;
  /** The scratch root: every workspace, shim and self-test folder of the run is under it. */
  scratchDir: string;
  /** A test runner on this sandbox. */
  runner(timeoutMs: number, caps?: SandboxCaps): TestRunner;
  /** The labs' tables on this sandbox, cached in `dir` (null: in memory), tied to the kit's fingerprint. */
  labTables(o: { dir: string | null; kit: string; timeoutMs: number; fresh?: boolean }): LabTables;
}

/** A run's context. */
export interface RunContext {
  /** The endpoint named; absent: the embedded scripted endpoint. */
  readonly live?: LiveEndpoint;
  /** The models named (a run that calls a model). */
  readonly models?: string[];
  /** The key, never printed or written. */
  readonly apiKey: string | null;
  /** The run's secrets (the key once resolved). */
  readonly secrets: RunSecrets;
  /** `text` without the key. */
  redact(text: string): string;
  /** The sandbox, made on the first call (later calls share it), or why there is none. */
  sandbox(): Promise<{ ok: true; ready: ReadySandbox } | { ok: false; diagnostic: Diagnostic }>;
  /** The limits of a packet's budget under the flags', and the flags it ignores. */
  budget(packet: BudgetLimits): { limits: BudgetLimits; ignored: string[] };
  /** The embedded scripted endpoint serving these packets' replies on 127.0.0.1; closed by `dispose`. */
  scriptedServer(packets: Iterable<{ id: string; dir: string; replies: readonly string[]; render?: (text: string) => string }>): Promise<ScriptedServer>;
  /** Close the servers, dispose of the sandbox, remove the scratch root; safe to call twice. */
  dispose(): Promise<void>;
}

/**
 * Open a run's context: the model side is resolved now (null after telling `messages` why the
 * run cannot start: exit 2), the sandbox when first asked for.
 */
export function openRunContext(command: string, host: RunHost, o: RunContextOptions, messages: RunMessages = {}): RunContext | null {
  const secrets = host.secrets ?? createSecrets();
  const choice = o.model ? resolveModelEndpoint(command, o.model, host.env, messages) : { apiKey: null };
  if (!choice) return null;
  secrets.add(choice.apiKey);
  const live = choice.live;
  const servers: ScriptedServer[] = [];
  let scratch: ScratchRoot | undefined;
  let environment: RunEnvironment | undefined;
  let made: ReturnType<RunContext['sandbox']> | undefined;
  const release = async () => {
    const env = environment;
    const root = scratch;
    environment = undefined;
    scratch = undefined;
    await env?.dispose();
    await root?.dispose();
  };
  const make = async (): ReturnType<RunContext['sandbox']> => {
    const parent = host.tmpDir ?? tmpdir();
    try {
      scratch = await createScratchRoot({ parent });
    } catch (err) {
      // A temporary folder that is full, read-only or not a folder: no run can start, and it is no bug.
      const fault = fsFault(err);
      if (!fault) throw err;
      return { ok: false, diagnostic: diagnose(Errors.ScratchUnwritable, { file: parent }, { folder: `${parent}/`, reason: fault.reason, fix: fault.fix }) };
    }
    const bwrapPath = host.env.PACKET_KIT_BWRAP;
    const prepare = host.prepareSandbox ?? prepareRunEnvironment;
    const prepared = await prepare({ env: host.env, tmpDir: scratch.dir, allowUnconfined: o.unconfined, ...(bwrapPath ? { bwrapPath } : {}) });
    if (!prepared.ok) {
      await release();
      return { ok: false, diagnostic: diagnose(Errors.SandboxUnavailable, { file: o.packets }, { reason: prepared.message }) };
    }
    environment = prepared.environment;
    for (const note of environment.notes ?? []) messages.onMessage?.(`note: ${note}\n`);
    if (live && environment.sandbox.kind !== 'bubblewrap') {
      await release();
      return { ok: false, diagnostic: diagnose(ModelErrors.UnconfinedModelRefused, { file: '--unconfined' }, { host: live.host }) };
    }
    const env = environment;
    const scratchDir = scratch.dir;
    const runner = (timeoutMs: number, caps?: SandboxCaps): TestRunner => ({ sandbox: env.sandbox, mounts: env.interpreter.mounts, timeoutMs, ...(caps ? { caps } : {}) });
    return {
      ok: true,
      ready: {
        environment: env,
        scratchDir,
        runner,
        labTables: (t) =>
          labTables({
            runner: runner(t.timeoutMs),
            scratchDir,
            dir: t.dir === null ? null : path.resolve(host.cwd, t.dir),
            interpreter: env.interpreter.version,
            kit: t.kit,
            ...(t.fresh ? { fresh: true } : {}),
          }),
      },
    };
  };
  return {
    ...(live ? { live } : {}),
    ...(choice.models ? { models: choice.models } : {}),
    apiKey: choice.apiKey,
    secrets,
    redact: (text) => secrets.redact(text),
    sandbox: () => (made ??= make()),
    budget: (packet) => effectiveBudget(packet, o.budget ?? {}),
    async scriptedServer(packets) {
      const started = await startScriptedServer({ replies: replyStoreFromDirs(new Map([...packets].map((p) => [p.id, { dir: p.dir, replies: p.replies, ...(p.render ? { render: p.render } : {}) }]))) });
      // Closed once, whoever closes it first (the run when done with it, or dispose).
      let closing: Promise<void> | undefined;
      const server: ScriptedServer = { ...started, close: () => (closing ??= started.close()) };
      servers.push(server);
      return server;
    },
    async dispose() {
      const open = servers.splice(0);
      await Promise.all(open.map((s) => s.close()));
      if (made) await made.catch(() => undefined);
      await release();
    },
  };
}
