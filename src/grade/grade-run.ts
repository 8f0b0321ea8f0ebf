/**
 * `packet grade` as a library call, from its flags to its exit code (the numbers come checked by
 * the flag spec): the packet found (clean; a lab's or a drill's submissions are answer sheets, sheet-grade.ts), the run context opened (the sandbox in a scratch root of
 * its own), the batch graded, the context disposed of. Everything said goes to the reporter.
 */
import path from 'node:path';
import { diagnose } from '../errors/catalog.ts';
import { sortDiagnostics } from '../errors/diagnostic.ts';
import { GradeErrors } from '../errors/grade-catalog.ts';
import { loadPacketFiles } from '../judge/workspace.ts';
import { KIT_ROOT } from '../kit/fingerprint.ts';
import { kitVersion } from '../kit/identity.ts';
import { loadPackets } from '../packets/load.ts';
import { openRunContext, type RunHost } from '../runs/context.ts';
import { folderFault } from '../runs/output-folder.ts';
import { poolOf, type PoolFlags } from '../runs/run-flags.ts';
import { gradeSubmissions, type GradeBatch, type GradeReporter } from './grade.ts';
import { gradeSheets } from './sheet-grade.ts';
import { shownName } from '../errors/safe-name.ts';
import { hasCode, type Packet } from '../packets/packet.ts';
import { combinationCount } from '../packets/variants.ts';
import { VARIANTS_MAX } from '../packets/schema/prompt-variants.ts';
import { variantRenders } from './grade-variants.ts';
import { loadRoster, rosterMost, type Roster, type RosterProblem } from './roster.ts';

/** The flags of `packet grade`, as parsed: `--jobs` (default: the cores) and `--timeout` within the flag spec's bounds. */
export interface GradeFlags extends PoolFlags {
  /** The packet's id. */
  id: string;
  /** The submissions, as given (relative to the working directory). */
  submissions: readonly string[];
  packets: string;
  out: string;
  unconfined: boolean;
  /** For a packet with variants: how many were sent out; default its `variants.count`, or the highest variant the roster names when that is more. */
  variants?: number;
  /** For a packet with variants: the roster of which variant was sent to whom (CSV or JSON), relative to the working directory. */
  roster?: string;
}

/** Grade as `packet grade` does; returns its exit code (0 all graded, 1 some could not be, 2 no sandbox, a bad flag, no such packet, a scorecard or the grades folder that cannot be written). */
export async function gradeRun(flags: GradeFlags, host: RunHost, reporter: GradeReporter): Promise<number> {
  const { id } = flags;
  const pool = poolOf(flags);
  const loaded = await loadPackets({ packetsDir: flags.packets, cwd: host.cwd });
  const packet = loaded.packets.find((p) => p.id === id);
  const source = loaded.sources.find((s) => s.id === id);
  if (!packet || !source) {
    const errors = sortDiagnostics(loaded.diagnostics.filter((d) => d.severity === 'error' && d.file.includes(`/${id}/`)));
    if (errors.length) {
      reporter.onPacketDiagnostics?.(errors);
      reporter.onDiagnostic?.(diagnose(GradeErrors.PacketNotClean, { file: `${flags.packets}/${id}` }, { id, count: errors.length }));
    } else {
      reporter.onDiagnostic?.(diagnose(GradeErrors.PacketUnknown, { file: flags.packets }, { id, known: loaded.packets.map((p) => p.id).join(', ') || 'none' }));
    }
    return 2;
  }
  // The roster is read whole before anything is written: a roster with a problem grades nothing.
  const packetDir = path.resolve(host.cwd, flags.packets, source.folder);
  let roster: Roster | undefined;
  if (flags.roster !== undefined) {
    const got = await rosterOf(flags.roster, packet, packetDir, host.cwd, flags.variants);
    if ('problems' in got) {
      for (const p of got.problems) reporter.onDiagnostic?.(diagnose(GradeErrors.RosterUnreadable, { file: got.file, ...(p.line !== null ? { line: p.line } : {}) }, { file: got.file, ...p }));
      return 2;
    }
    roster = got.roster;
  }
  const sentOut = roster && hasCode(packet) && flags.variants === undefined ? Math.max(packet.prompt.data.variants?.count ?? 1, rosterMost(roster)) : flags.variants;
  const outDir = path.resolve(host.cwd, flags.out, id);
  const fault = await folderFault(outDir);
  if (fault) {
    const folder = path.relative(host.cwd, outDir) || '.';
    reporter.onDiagnostic?.(diagnose(GradeErrors.GradeOutUnwritable, { file: folder }, { folder: `${folder}/`, reason: fault.reason, fix: fault.fix }));
    return 2;
  }
  const common = { outDir, jobs: pool.jobs, kitVersion: kitVersion(KIT_ROOT), date: host.now, now: () => performance.now(), random: Math.random, reporter };
  const submissions = flags.submissions.map((s) => path.resolve(host.cwd, s));
  const exitOf = ({ cards, unwritten }: GradeBatch) => (unwritten.length ? 2 : cards.some((c) => !c.graded || c.verdict === 'INCONCLUSIVE') ? 1 : 0);
  // A drill runs no code: its answer sheets meet the key without a sandbox.
  if (packet.kind === 'drill') return exitOf(await gradeSheets({ ...common, packet, submissions, sandboxKind: null }));
  const ctx = openRunContext('grade', host, { unconfined: flags.unconfined, packets: flags.packets }, reporter)!;
  try {
    const sandbox = await ctx.sandbox();
    if (!sandbox.ok) {
      reporter.onDiagnostic?.(sandbox.diagnostic);
      return 2;
    }
    const { ready } = sandbox;
    const { environment } = ready;
    if (environment.notice) reporter.onMessage?.(`note: ${environment.notice} Submissions are untrusted code.\n`);
    if (!roster && packet.prompt.data.variants) reporter.onMessage?.(withoutRosterNote(packet.id, packet.kind));
    const files = await loadPacketFiles(packet, packetDir);
    const runner = ready.runner(pool.timeoutMs, packet.prompt.data.sandbox);
    if (packet.kind === 'lab') return exitOf(await gradeSheets({ ...common, packet, files, submissions, ...(sentOut !== undefined ? { variants: sentOut } : {}), ...(roster ? { roster } : {}), runner, sandboxKind: environment.sandbox.kind, scratchDir: ready.scratchDir }));
    return exitOf(await gradeSubmissions({ ...common, files, submissions, ...(sentOut !== undefined ? { variants: sentOut } : {}), ...(roster ? { roster } : {}), runner, sandboxKind: environment.sandbox.kind, scratchDir: ready.scratchDir }));
  } finally {
    await ctx.dispose();
  }
}

/** The roster of `--roster`, read and checked against the packet, or its problems (each a PK587), with the file as messages name it. */
async function rosterOf(given: string, packet: Packet, packetDir: string, cwd: string, variants: number | undefined): Promise<{ roster: Roster } | { problems: RosterProblem[]; file: string }> {
  const file = shownName(given);
  const spec = hasCode(packet) ? packet.prompt.data.variants : undefined;
  const none = (problem: string, fix: string) => ({ problems: [{ line: null, field: null, problem, fix }], file });
  if (packet.kind === 'drill') {
    return none(`packet ${packet.id} has no variants: it is a drill (a drill takes none, PK589), every candidate answers the same diffs, so there is no variant to look up`, 'grade the answer sheets without --roster');
  }
  if (!hasCode(packet) || !spec) {
    return none(`packet ${packet.id} has no variants: every candidate was sent the same files, so there is no variant to look up`, `grade without --roster (a roster is for a packet with \`variants\` in its prompt's frontmatter, docs/variants.md)`);
  }
  const got = await loadRoster(path.resolve(cwd, given), file, { id: packet.id, most: Math.min(VARIANTS_MAX, combinationCount(spec)), ...(variants !== undefined ? { sentOut: variants } : {}), renders: variantRenders(packet, packetDir) });
  return 'roster' in got ? got : { problems: got.problems, file };
}

/**
 * What `packet grade` says when a packet with variants is graded without `--roster`: each
 * submission's variant is then what the submission states, which its candidate controls, so an
 * answer copied together with its README (a lab: a sheet exported from another variant's page)
 * is graded as the variant it was copied from and can pass. Said once, before the first card.
 */
export function withoutRosterNote(id: string, kind: string): string {
  const stated = kind === 'lab' ? "its sheet's digest" : "its README's Variant and Digest lines";
  const copy = kind === 'lab' ? "a sheet exported from another variant's page" : 'an answer copied together with its README';
  return `note: ${id} has variants and no --roster was given: each submission is graded as the variant ${stated} name, which the candidate writes, so ${copy} is graded as that variant and can pass. Grade with --roster roster.csv, the record of which variant you sent to whom (docs/grading.md, "The roster").\n`;
}
