import { existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BundleErrors } from '../errors/bundle-catalog.ts';
import { diagnose } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import type { RehearsalStatus } from '../packets/build-status.ts';
import type { Packet } from '../packets/packet.ts';
import type { RehearsalReport } from '../rehearse/report.ts';
import { buildCandidateZip, type PacketFileReader } from './candidate-zip.ts';
import { collectCanaries, scanDirForCanaries, scanFilesForCanaries } from './canary.ts';
import { buildManifest, manifestJson, MANIFEST_FILE, ZIPS_DIR, type ManifestPacket } from './manifest.ts';
import { pidAlive } from './pid-alive.ts';
import { buildDrillReviewerBundle, buildReviewerBundle, mutationEvidence, rehearsalEvidence, type MutationEvidence } from './reviewer-bundle.ts';
import { assistantPublicTexts, keyTexts } from './lab-key.ts';
import { candidateTable, LAB_TABLE_FILE, type LabTable } from '../labs/table.ts';
import type { Drill } from '../packets/drill.ts';
import type { SiteBuildResult } from './site-build.ts';
import type { CachedZip, ZipCache, ZipKey } from './zip-cache.ts';

/**
 * `packet build`: check, rehearse, zips, site, canary scan, reviewer bundles, swap. Everything is
 * written into staging folders beside the targets and swapped in only when every step passed,
 * so a failed or interrupted build leaves the previous `dist/` and reviewer bundles as they were.
 * The steps that reach outside (loading, lint, rehearsal, Astro) are passed in; this module
 * orders them, owns the folders and decides.
 *
 * The gates are taken in the order above, and the output reads in that order, but the work
 * overlaps where nothing can ship early: once the packets load without errors the zips are built
 * (or taken from the zip cache, when nothing they are made of changed) and handed with the
 * manifest to the Astro build in its own process, while this one lints, waits for the rehearsal,
 * builds the reviewer bundles, collects the canaries and searches the zips for them. The manifest
 * the site is built with says "fails-closed" for a packet being rehearsed; a packet that does not
 * fail closed stops the build, so that site is never swapped in. Any failure stops the Astro
 * child before the staging folders are removed.
 */

/** The steps of a build, in order. */
export const BUILD_STEPS = ['check', 'rehearse', 'labs', 'zips', 'site', 'canary', 'reviewer', 'swap'] as const;
/** A step of a build. */
export type BuildStep = (typeof BUILD_STEPS)[number];

/** What the rehearsal step gave. */
export type RehearsalOutcome = { ok: true; report: RehearsalReport } | { ok: false; diagnostic: Diagnostic };

/** What the labs step gave: each lab's test table, by id. */
export type LabTablesOutcome = { ok: true; tables: ReadonlyMap<string, LabTable>; cached: number } | { ok: false; packets: string[]; diagnostic: Diagnostic; exitCode: number };

/** The parts of a build that reach outside, passed in. */
export interface BuildSteps {
  /** Load and validate every packet (frontmatter, cross-file checks, trees). */
  load(): Promise<{ packets: Packet[]; drills?: Drill[]; sources: readonly { id: string; dir: string }[]; diagnostics: Diagnostic[] }>;
  /** The rest of `packet check` on the loaded packets: lint and version drift. */
  lint(packets: readonly Packet[]): Promise<Diagnostic[]>;
  /** The offline rehearsal (cached); absent with `--skip-rehearse`. */
  rehearse?(packets: Packet[]): Promise<RehearsalOutcome>;
  /** The labs' test tables (cached, shared with the rehearsal): every combination run in the sandbox. Without it, lab pages have no table. */
  labTables?(labs: Packet[]): Promise<LabTablesOutcome>;
  /** The last rehearsal report on disk, for the reviewer bundles of a build that skips the rehearsal. */
  lastReport(): Promise<RehearsalReport | undefined>;
  /** A packet's last mutation run on disk (`packet mutate`), for its reviewer bundle; none when absent. */
  lastMutation?(packet: Packet): Promise<Omit<MutationEvidence, 'stale'> | undefined>;
  /** The Astro build into `outDir`, with the manifest at `manifestFile`; `signal` stops it. */
  buildSite(args: { outDir: string; manifestFile: string; signal: AbortSignal }): Promise<SiteBuildResult>;
}

/** Everything a build needs. */
export interface BuildOptions {
  /** The working directory: diagnostics show paths relative to it. */
  cwd: string;
  /** The site folder to replace, absolute (`dist`). */
  outDir: string;
  /** The reviewer bundles folder to replace, absolute (`out/reviewer`). */
  reviewerDir: string;
  steps: BuildSteps;
  /** Reads a packet's (or a drill's) files by path relative to its folder. */
  reader(packet: Pick<Packet, 'id' | 'dir'>): PacketFileReader;
  /** Candidate zips and reviewer bundles of earlier builds, by what they are made of; without one every zip is built. */
  zipCache?: ZipCache;
  /** One progress line per step. */
  log(line: string): void;
  /** Diagnostics worth showing as they come (check warnings, refusals, leaks). */
  report(list: readonly Diagnostic[]): void;
  /** Aborting stops the build at the next step (and the Astro child at once); the previous output is kept. */
  signal: AbortSignal;
  /** Monotonic milliseconds, for step times. */
  now(): number;
  /** Suffix of the staging folders' names; the process id. */
  tag: string;
}

/** What one built packet gave. */
export interface BuiltPacket {
  id: string;
  version: string;
  zip: { name: string; size: number; sha256: string };
  reviewer: { name: string; size: number };
  rehearsal: RehearsalStatus;
}

/** How a build ended. */
export type BuildResult =
  | { ok: true; packets: BuiltPacket[]; durations: Partial<Record<BuildStep, number>> }
  | { ok: false; step: BuildStep | 'interrupted'; packets: string[]; diagnostic: Diagnostic; exitCode: number; durations: Partial<Record<BuildStep, number>> };

/** A build failure carried to the top. */
class StepFailure extends Error {
  readonly step: BuildStep | 'interrupted';
  readonly packets: string[];
  readonly diagnostic: Diagnostic;
  readonly exitCode: number;
  constructor(step: BuildStep | 'interrupted', packets: string[], diagnostic: Diagnostic, exitCode = 1) {
    super(diagnostic.message);
    this.step = step;
    this.packets = packets;
    this.diagnostic = diagnostic;
    this.exitCode = exitCode;
  }
}

/** The staging and aside names of a target folder: `.dist-staging-<tag>`, `.dist-old-<tag>`. */
export function siblingNames(target: string, tag: string): { staging: string; old: string } {
  const dir = path.dirname(target);
  const base = path.basename(target);
  return { staging: path.join(dir, `.${base}-staging-${tag}`), old: path.join(dir, `.${base}-old-${tag}`) };
}

/**
 * Clean up after a build that was killed (SIGKILL, power loss): remove its staging folders, and
 * if it died between the two renames of a swap, put the previous folder back.
 */
export function recoverStale(target: string): string[] {
  const dir = path.dirname(target);
  const base = path.basename(target);
  const done: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return done;
  }
  const pattern = new RegExp(`^\\.${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(staging|old)-(\\d+)$`);
  for (const name of names.sort()) {
    const m = pattern.exec(name);
    if (!m || pidAlive(Number(m[2]))) continue;
    const abs = path.join(dir, name);
    if (m[1] === 'old' && !existsSync(target)) {
      renameSync(abs, target);
      done.push(`restored ${name} as ${base}`);
    } else {
      rmSync(abs, { recursive: true, force: true });
      done.push(`removed ${name}`);
    }
  }
  return done;
}

/**
 * Put `staging` in place of `target`: the old folder is renamed aside, the staging folder
 * renamed in, the old one removed. Synchronous, so no signal handler runs in between; if the
 * second rename fails the old folder goes back.
 */
export function swapIn(staging: string, target: string, tag: string): void {
  const { old } = siblingNames(target, tag);
  const hadOld = existsSync(target);
  if (hadOld) renameSync(target, old);
  try {
    renameSync(staging, target);
  } catch (err) {
    if (hadOld) renameSync(old, target);
    throw err;
  }
  if (hadOld) rmSync(old, { recursive: true, force: true });
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** A promise's outcome, without throwing. */
type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

function unwrap<T>(s: Settled<T>): T {
  if (!s.ok) throw s.error;
  return s.value;
}

/** Run a build. Never throws for a packet's problem: the result names the step and the packets. */
export async function runBuild(options: BuildOptions): Promise<BuildResult> {
  const durations: Partial<Record<BuildStep, number>> = {};
  const site = siblingNames(options.outDir, options.tag);
  const reviewer = siblingNames(options.reviewerDir, options.tag);
  const rel = (p: string) => path.relative(options.cwd, p).split(path.sep).join('/') || '.';
  const secs = (name: BuildStep) => `(${((durations[name] ?? 0) / 1000).toFixed(1)} s)`;
  const timed = async <T>(name: BuildStep, fn: () => Promise<T>): Promise<T> => {
    const t0 = options.now();
    try {
      return await fn();
    } finally {
      durations[name] = (durations[name] ?? 0) + Math.round(options.now() - t0);
    }
  };
  const interrupted = () =>
    new StepFailure('interrupted', [], diagnose(BundleErrors.BuildInterrupted, { file: rel(options.outDir) }, { signal: String(options.signal.reason ?? 'aborted') }), 130);
  const gate = () => {
    if (options.signal.aborted) throw interrupted();
  };
  // Stops the Astro child on a failure of another step, as on a signal.
  const stop = new AbortController();
  const onSignal = () => stop.abort(options.signal.reason);
  options.signal.addEventListener('abort', onSignal);
  const pending: Promise<unknown>[] = [];

  for (const target of [options.outDir, options.reviewerDir]) for (const line of recoverStale(target)) options.log(`build: ${line}\n`);
  try {
    // 1a. check: load and validate. Nothing starts unless every packet is valid.
    gate();
    const loaded = await timed('check', () => options.steps.load());
    const packets = loaded.packets;
    const checkFailure = (list: readonly Diagnostic[]) => {
      const errors = list.filter((d) => d.severity === 'error');
      if (!errors.length) return;
      const names = packetNamesOf(errors, loaded.sources);
      throw new StepFailure('check', names, diagnose(BundleErrors.BuildCheckFailed, { file: rel(options.cwd) }, { errors: errors.length, packets: names.join(', ') }));
    };
    if (loaded.diagnostics.some((d) => d.severity === 'error')) {
      options.report(loaded.diagnostics);
      checkFailure(loaded.diagnostics);
    }

    // 2. the rehearsal starts now, in its sandboxes.
    const rehearse = options.steps.rehearse;
    const rehearsal = rehearse ? settle(timed('rehearse', () => rehearse(packets))) : undefined;
    if (rehearsal) pending.push(rehearsal);
    const drills = loaded.drills ?? [];
    const labs = packets.filter((p) => p.lab);
    const tabled = labs.length && options.steps.labTables ? settle(timed('labs', () => options.steps.labTables!(labs))) : undefined;
    if (tabled) pending.push(tabled);

    // 3. zips and manifest into a fresh staging folder.
    gate();
    await rm(site.staging, { recursive: true, force: true });
    await mkdir(path.join(site.staging, ZIPS_DIR), { recursive: true });
    // Zips built now go into the cache once the site has started: they are not on its way.
    const toCache: { key: ZipKey; zip: CachedZip }[] = [];
    const zipped = await settle(
      timed('zips', async () => {
        const out = new Map<string, CachedZip>();
        const refused: Diagnostic[] = [];
        for (const packet of packets) {
          const key = { kind: 'candidate' as const, packet };
          const cached = await options.zipCache?.get(key);
          if (cached) {
            out.set(packet.id, cached);
            continue;
          }
          const { zip, diagnostics } = await buildCandidateZip(packet, options.reader(packet));
          if (zip) {
            out.set(packet.id, zip);
            toCache.push({ key, zip });
          } else refused.push(...diagnostics);
        }
        if (refused.length) return { out, refused };
        // Synchronous: hundreds of small files, where a thread-pool round trip costs more than the write.
        for (const zip of out.values()) writeFileSync(path.join(site.staging, ZIPS_DIR, zip.name), zip.bytes);
        return { out, refused };
      }),
    );
    const zips = zipped.ok ? zipped.value.out : new Map<string, CachedZip>();
    const optimistic: RehearsalStatus = rehearse ? 'fails-closed' : 'not-rehearsed';
    const entries = (): ManifestPacket[] =>
      packets.map((p) => {
        const zip = zips.get(p.id)!;
        return { id: p.id, version: p.prompt.data.version, digest: p.digest, zip: zip.name, size: zip.bytes.byteLength, sha256: zip.sha256, rehearsal: optimistic };
      });
    const manifestFile = path.join(site.staging, MANIFEST_FILE);
    const zipsOk = zipped.ok && zipped.value.refused.length === 0;

    // 4. the site starts building in its own process, only on a complete set of zips.
    let siteBuild: Promise<Settled<SiteBuildResult>> | undefined;
    if (zipsOk) {
      await writeFile(manifestFile, manifestJson(buildManifest(entries())));
      gate();
      siteBuild = settle(timed('site', () => options.steps.buildSite({ outDir: site.staging, manifestFile, signal: stop.signal })));
      pending.push(siteBuild);
      for (const { key, zip } of toCache) await options.zipCache?.set(key, zip);
    }

    // 1b. meanwhile: the lint, then the check gate.
    const linted = await settle(timed('check', () => options.steps.lint(packets)));
    const checkDiagnostics = [...loaded.diagnostics, ...unwrap(linted)];
    options.report(checkDiagnostics);
    checkFailure(checkDiagnostics);
    const valid = packets.length + drills.length;
    options.log(`build: check      ${valid} packet${valid === 1 ? '' : 's'} valid ${secs('check')}\n`);

    // 2. the rehearsal gate.
    let report: RehearsalReport | undefined;
    if (rehearsal) {
      const outcome = unwrap(await rehearsal);
      if (!outcome.ok) throw new StepFailure('rehearse', [], outcome.diagnostic, 2);
      report = outcome.report;
      const bad = report.packets.filter((p) => p.status !== 'fails-closed');
      if (bad.length) {
        const list = bad.map((p) => `${p.id} (${p.status})`).join(', ');
        throw new StepFailure(
          'rehearse',
          bad.map((p) => p.id),
          diagnose(BundleErrors.BuildRehearsalFailed, { file: rel(options.cwd) }, { packets: list, status: bad.length === 1 ? 'does not fail closed' : 'do not fail closed' }),
          bad.some((p) => p.status === 'inconclusive') ? 2 : 1,
        );
      }
      options.log(`build: rehearse   ${report.summary.failsClosed} fail closed (${report.summary.cached} cached) ${secs('rehearse')}\n`);
    } else {
      options.log('build: rehearse   skipped (--skip-rehearse): every packet is marked "not rehearsed"\n');
    }

    // 2b. the labs gate: every lab's test table.
    let tables: ReadonlyMap<string, LabTable> = new Map();
    if (tabled) {
      const outcome = unwrap(await tabled);
      if (!outcome.ok) throw new StepFailure('labs', outcome.packets, outcome.diagnostic, outcome.exitCode);
      tables = outcome.tables;
      const combos = [...tables.values()].reduce((sum, t) => sum + t.combinations.length, 0);
      options.log(`build: labs       ${tables.size} lab table${tables.size === 1 ? '' : 's'}, ${combos} combinations (${outcome.cached} cached) ${secs('labs')}\n`);
    } else if (labs.length) {
      options.log(`build: labs       skipped: no sandbox step, so ${labs.length} lab page${labs.length === 1 ? ' has' : 's have'} no test table\n`);
    }

    // 3. the zips gate.
    const zipResult = unwrap(zipped);
    if (zipResult.refused.length) {
      options.report(zipResult.refused);
      const ids = packets.filter((p) => !zips.has(p.id)).map((p) => p.id);
      throw new StepFailure('zips', ids, zipResult.refused[0]!);
    }
    const total = [...zips.values()].reduce((sum, z) => sum + z.bytes.byteLength, 0);
    options.log(`build: zips       ${zips.size} candidate zip${zips.size === 1 ? '' : 's'}, ${kb(total)}, and ${MANIFEST_FILE} ${secs('zips')}\n`);

    // 6a. while Astro runs: the reviewer bundles (into their own staging folder) and the canaries.
    gate();
    const lastReport = report ?? (await options.steps.lastReport());
    await rm(reviewer.staging, { recursive: true, force: true });
    await mkdir(reviewer.staging, { recursive: true });
    const bundled = await settle(
      timed('reviewer', async () => {
        const out = new Map<string, CachedZip>();
        const refused: Diagnostic[] = [];
        for (const packet of packets) {
          const zip = zips.get(packet.id)!;
          const inputs = {
            candidate: { name: zip.name, sha256: zip.sha256, size: zip.bytes.byteLength },
            ...optional('rehearsal', rehearsalEvidence(lastReport, packet)),
            ...optional('mutation', mutationEvidence(await options.steps.lastMutation?.(packet), packet)),
            ...optional('labTable', tables.get(packet.id)),
          };
          const key = { kind: 'reviewer' as const, packet, inputs };
          let bundle = await options.zipCache?.get(key);
          if (!bundle) {
            const built = await buildReviewerBundle(packet, options.reader(packet), inputs);
            if (!built.zip) {
              refused.push(...built.diagnostics);
              continue;
            }
            bundle = built.zip;
            await options.zipCache?.set(key, bundle);
          }
          out.set(packet.id, bundle);
          await writeFile(path.join(reviewer.staging, bundle.name), bundle.bytes);
        }
        for (const drill of drills) {
          const built = await buildDrillReviewerBundle(drill, options.reader(drill));
          if (!built.zip) {
            refused.push(...built.diagnostics);
            continue;
          }
          out.set(drill.id, built.zip);
          await writeFile(path.join(reviewer.staging, built.zip.name), built.zip.bytes);
        }
        return { out, refused };
      }),
    );
    const keys = [...packets, ...drills];
    const extra = { secret: keys.flatMap(keyTexts), public: [...keys.flatMap(assistantPublicTexts), ...drills.flatMap((d) => [d.prompt.text, d.rubric.text])] };
    const canaries = await settle(timed('canary', () => collectCanaries(packets.map((packet) => ({ packet, read: options.reader(packet) })), extra)));
    // The zips are searched now, while Astro runs; after it, what it added (and anything changed).
    const zipsScanned = canaries.ok ? await settle(timed('canary', () => scanFilesForCanaries(new Map([...zips.values()].map((z) => [`${ZIPS_DIR}/${z.name}`, z.bytes])), canaries.value))) : undefined;

    // 4. the site gate.
    const siteResult = unwrap(await siteBuild!);
    gate();
    const output = siteResult.output.trim();
    if (output) options.log(output.replace(/^/gm, '  astro: ') + '\n');
    if (!siteResult.ok) throw new StepFailure('site', [], diagnose(BundleErrors.SiteBuildFailed, { file: rel(options.outDir) }, { reason: siteResult.reason }));
    options.log(`build: site       astro build into ${rel(site.staging)} ${secs('site')}\n`);
    // The candidate's test table of each lab, beside its pages (the held-out results and the key go to the reviewer bundle only).
    for (const [id, table] of tables) {
      await mkdir(path.join(site.staging, 'packets', id), { recursive: true });
      await writeFile(path.join(site.staging, 'packets', id, LAB_TABLE_FILE), `${JSON.stringify(candidateTable(table))}\n`);
    }

    // 5. the canary scan over everything that would be published.
    const scan = await timed('canary', () => scanDirForCanaries(site.staging, unwrap(canaries), zipsScanned && unwrap(zipsScanned)));
    if (scan.leaks.length) {
      const diags = scan.leaks.map((l) => ({ ...diagnose(BundleErrors.CanaryLeak, { file: `${rel(options.outDir)}/${l.where}` }, { where: `${rel(options.outDir)}/${l.where}`, source: l.source }), sensitive: true }));
      options.report(diags);
      const ids = [...new Set(scan.leaks.map((l) => packets.find((p) => l.source.startsWith(`${p.dir}/`))?.id ?? l.source))];
      throw new StepFailure('canary', ids, diags[0]!);
    }
    options.log(`build: canary     ${scan.canaries} secret lines searched in ${scan.files} files (${kb(scan.bytes)}), zips opened: no leak ${secs('canary')}\n`);

    // 6b. the reviewer gate.
    const bundles = unwrap(bundled);
    if (bundles.refused.length) {
      options.report(bundles.refused);
      throw new StepFailure('reviewer', packets.filter((p) => !bundles.out.has(p.id)).map((p) => p.id), bundles.refused[0]!);
    }
    options.log(`build: reviewer   ${bundles.out.size} reviewer bundle${bundles.out.size === 1 ? '' : 's'}${drills.length ? ` (${drills.length} of drills)` : ''} ${secs('reviewer')}\n`);

    // 7. swap, synchronously: a signal handler cannot run between the renames.
    gate();
    const t0 = options.now();
    await mkdir(path.dirname(options.outDir), { recursive: true });
    await mkdir(path.dirname(options.reviewerDir), { recursive: true });
    gate();
    swapIn(site.staging, options.outDir, options.tag);
    swapIn(reviewer.staging, options.reviewerDir, options.tag);
    durations.swap = Math.round(options.now() - t0);
    options.log(`build: swap       ${rel(options.outDir)}/ and ${rel(options.reviewerDir)}/ replaced\n`);

    return {
      ok: true,
      durations,
      packets: entries().map((e) => ({
        id: e.id,
        version: e.version,
        zip: { name: e.zip, size: e.size, sha256: e.sha256 },
        reviewer: { name: bundles.out.get(e.id)!.name, size: bundles.out.get(e.id)!.bytes.byteLength },
        rehearsal: e.rehearsal,
      })),
    };
  } catch (err) {
    if (!(err instanceof StepFailure)) throw err;
    const failure = options.signal.aborted && err.step !== 'interrupted' ? interrupted() : err;
    return { ok: false, step: failure.step, packets: failure.packets, diagnostic: failure.diagnostic, exitCode: failure.exitCode, durations };
  } finally {
    // Nothing may still write into a staging folder when it is removed.
    stop.abort('build stopped');
    await Promise.all(pending);
    options.signal.removeEventListener('abort', onSignal);
    await rm(site.staging, { recursive: true, force: true });
    await rm(reviewer.staging, { recursive: true, force: true });
  }
}

/** `{ [key]: value }` when value is defined, `{}` otherwise (for exactOptionalPropertyTypes). */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** The ids of the packets the diagnostics are about (by their folder), in order; a file outside every packet by its name. */
function packetNamesOf(list: readonly Diagnostic[], sources: readonly { id: string; dir: string }[]): string[] {
  const ids = new Set<string>();
  for (const d of list) ids.add(sources.find((s) => d.file === s.dir || d.file.startsWith(`${s.dir}/`))?.id ?? d.file);
  return [...ids];
}

/** Read a rehearsal report file, if there is one that parses. */
export async function readReportFile(file: string): Promise<RehearsalReport | undefined> {
  try {
    const report = JSON.parse(await readFile(file, 'utf8')) as RehearsalReport;
    return Array.isArray(report.packets) ? report : undefined;
  } catch {
    return undefined;
  }
}
