import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { KIT_ROOT } from '../kit/fingerprint.ts';
import { kitIdentity, type KitIdentity } from '../kit/identity.ts';
import type { CodePacket } from '../packets/packet.ts';
import type { Sandbox, SandboxMounts } from '../sandbox/types.ts';
import type { LabTables } from '../labs/table-cache.ts';
import type { RehearsalCache } from './cache.ts';
import { rehearsePacket } from './rehearse-packet.ts';
import { rehearseVariants, REPLY_VARIANT } from './rehearse-variants.ts';
import type { ScriptedEndpoint } from './replies.ts';
import { fanOut } from '../runs/reporter.ts';
import type { RehearsalReporter } from './reporter.ts';
import { REPORT_SCHEMA_VERSION, statusOf, type CheckResult, type PacketReport, type RehearsalReport } from './report.ts';
import type { Shard } from './shard.ts';

/** Everything a rehearsal needs, passed in. */
export interface RehearseOptions {
  packets: readonly CodePacket[];
  /** Absolute path of each packet's folder, by id. */
  packetDirs: ReadonlyMap<string, string>;
  sandbox: Sandbox;
  /** Notice to carry in the report when the sandbox is unconfined. */
  sandboxNotice: string | null;
  /** Interpreter mounts and version. */
  interpreter: { mounts: SandboxMounts; version: string | null };
  /** Sandbox runs at once. */
  jobs: number;
  /** Per-run time limit. */
  timeoutMs: number;
  cache: RehearsalCache;
  reporters: readonly RehearsalReporter[];
  /** Where workspaces are made (a temporary folder). */
  scratchDir: string;
  /** Wall clock, for the report's date. */
  date: () => Date;
  /** Monotonic clock in ms. */
  now: () => number;
  /** The embedded scripted endpoint; when set, each packet's scripted replies are rehearsed too. */
  scripted?: ScriptedEndpoint;
  /** The kit, as the report names it (default: this kit's version and code fingerprint). */
  kit?: KitIdentity;
  /** The shard `packets` is (already selected); recorded in the report. */
  shard?: Shard;
  /** Labs' test tables (cached, shared with the build); default: computed per lab, kept in memory. */
  labTables?: LabTables;
  /** The variants rehearsed of each packet with parameters (`--variants N`); default: its `variants.count`. */
  variants?: number;
}

/** Rehearse packets: every check of every packet, on a shared pool, with a content-addressed cache. */
export async function rehearse(options: RehearseOptions): Promise<RehearsalReport> {
  const started = options.now();
  const date = options.date().toISOString();
  const limit = pLimit(Math.max(1, options.jobs));
  const scratch = await mkdtemp(path.join(options.scratchDir, 'packet-rehearse-'));
  const ids = options.packets.map((p) => p.id);
  const reporter = fanOut(options.reporters);
  reporter.onRunStart?.({ packets: ids, jobs: options.jobs });
  let failed = false;
  try {
    const reports = await Promise.all(
      options.packets.map(async (packet): Promise<PacketReport> => {
        const runner = { sandbox: options.sandbox, mounts: options.interpreter.mounts, timeoutMs: options.timeoutMs, ...(packet.prompt.data.sandbox ? { caps: packet.prompt.data.sandbox } : {}) };
        const keyOf = (digest: string, replies: boolean) => ({
          digest,
          command: packet.prompt.data.test,
          interpreter: options.interpreter.version ?? 'none',
          sandbox: options.sandbox.kind,
          timeoutMs: options.timeoutMs,
          replies,
        });
        // One packet (or one variant, from its rendered folder), from the cache when its digest is known.
        const once = async (p: CodePacket, dir: string, scripted: ScriptedEndpoint | undefined, onCheck?: (c: CheckResult) => void): Promise<PacketReport> => {
          const key = keyOf(p.digest, Boolean(scripted));
          const cached = await options.cache.get(p.id, key);
          if (cached) {
            for (const c of cached.checks) onCheck?.(c);
            return cached;
          }
          const report = await rehearsePacket({
            packet: p,
            packetDir: dir,
            runner,
            limit,
            scratchDir: scratch,
            now: options.now,
            ...(onCheck ? { onCheck } : {}),
            ...(scripted ? { scripted } : {}),
            ...(options.labTables ? { labTables: options.labTables } : {}),
            date: options.date,
          });
          await options.cache.set(p.id, key, report);
          return report;
        };
        reporter.onPacketStart?.(packet.id);
        const onCheck = (c: CheckResult) => reporter.onCheckEnd?.(packet.id, c);
        const report = packet.prompt.data.variants
          ? await rehearseVariants({
              packet,
              packetDir: options.packetDirs.get(packet.id)!,
              ...(options.variants !== undefined ? { count: options.variants } : {}),
              scratchDir: scratch,
              runner,
              limit,
              now: options.now,
              // The first variant's scripted replies are rehearsed (the endpoint serves them rendered, see replySource).
              rehearseVariant: (v, dir) => once(v.packet, dir, v.number === REPLY_VARIANT ? options.scripted : undefined),
              leakCache: {
                get: async (digest) => (await options.cache.get(packet.id, keyOf(digest, false)))?.checks[0],
                set: (digest, check) => options.cache.set(packet.id, keyOf(digest, false), { id: packet.id, version: packet.prompt.data.version, digest, status: statusOf([check]), checks: [check], defects: [], cached: false, durationMs: check.durationMs }),
              },
              onCheck,
            })
          : await once(packet, options.packetDirs.get(packet.id)!, options.scripted, onCheck);
        reporter.onPacketEnd?.(report);
        return report;
      }),
    );
    reports.sort((a, b) => a.id.localeCompare(b.id));
    const count = (s: PacketReport['status']) => reports.filter((r) => r.status === s).length;
    const report: RehearsalReport = {
      schemaVersion: REPORT_SCHEMA_VERSION,
      date,
      kit: options.kit ?? kitIdentity(KIT_ROOT),
      ...(options.shard ? { shard: { index: options.shard.index, count: options.shard.count } } : {}),
      sandbox: { kind: options.sandbox.kind, notice: options.sandboxNotice },
      interpreter: { python: options.interpreter.version },
      jobs: options.jobs,
      packets: reports,
      summary: {
        packets: reports.length,
        failsClosed: count('fails-closed'),
        defects: count('defect'),
        inconclusive: count('inconclusive'),
        cached: reports.filter((r) => r.cached).length,
        durationMs: Math.round(options.now() - started),
      },
    };
    reporter.onRunEnd?.(report);
    return report;
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    // A check still running beside one that failed (a receipt that could not be written) may write
    // into the scratch folder as it is removed: removed with retries, and the first error is the one told.
    await rm(scratch, { recursive: true, force: true, maxRetries: 5 }).catch((err: unknown) => {
      if (!failed) throw err;
    });
  }
}
