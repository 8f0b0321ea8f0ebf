import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { placeOf } from '../packets/place.ts';
import { BundleErrors } from '../errors/bundle-catalog.ts';
import { diagnose, Errors } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { atPath, fsFault } from '../errors/fs-fault.ts';
import { MANIFEST_FILE, type RehearsalStatus } from '../packets/build-status.ts';
import { codePackets, packetsOfKind, type CodePacket, type Lab, type Packet, type PacketOf } from '../packets/packet.ts';
import { candidateTable, labTablePath, type LabTable } from '../labs/table.ts';
import type { VariantTable } from './lab-variant-tables.ts';
import { publicRubricText, splitRubricBody } from '../packets/rubric-notes.ts';
import type { RehearsalReport } from '../rehearse/report.ts';
import type { RunMessages } from '../runs/reporter.ts';
import { kb, packetNamesOf, settle, startRun, StepFailure, unwrap, type BuildRun, type BuildStep, type Settled } from './build-run.ts';
import { buildCandidateZips, buildReviewerBundles, manifestEntries, type CandidateZips, type ReviewerBundles } from './build-zips.ts';
import type { PacketFileReader } from './candidate-zip.ts';
import { assistantPublicTexts, keyTexts, reviewerNotesTexts } from './lab-key.ts';
import { collectCanaries, scanDirForCanaries, scanFilesForCanaries, type Canary, type CanaryCache, type ScannedFiles } from './canary.ts';
import { buildManifest, manifestJson, SEARCH_DIR, ZIPS_DIR } from './manifest.ts';
import { publish, PublishBusyError, recoverPublish, recoverStale, siblingNames, type PublishHooks } from './publish.ts';
import type { MutationEvidence } from './reviewer-bundle.ts';
import type { SearchIndexResult } from './search-index.ts';
import type { SiteBuildResult } from './site-build.ts';
import type { CachedZip, ZipCache } from './zip-cache.ts';

export { BUILD_STEPS, type BuildStep } from './build-run.ts';

/**
 * `packet build`: check, rehearse, zips, site, canary scan, reviewer bundles, publish. Everything
 * is written into staging folders beside the targets and published only when every step passed,
 * the site and the reviewer bundles as one pair (publish.ts), so a failed, interrupted or killed
 * build leaves the previous pair. The steps that reach outside (loading, lint, rehearsal, Astro)
 * are passed in; this module orders them, owns the folders and decides.
 *
 * The gates are taken in the order above, and the output reads in that order, but the work
 * overlaps where nothing can ship early: once the packets load without errors the zips are built
 * (or taken from the zip cache, when nothing they are made of changed) and handed with the
 * manifest to the Astro build in its own process, while this one lints, waits for the rehearsal,
 * builds the reviewer bundles, collects the canaries and searches the zips for them. The manifest
 * the site is built with says "fails-closed" for a packet being rehearsed; a packet that does not
 * fail closed stops the build, so that site is never published. Any failure stops the Astro
 * child before the staging folders are removed.
 */

/** What the rehearsal step gave. */
export type RehearsalOutcome = { ok: true; report: RehearsalReport } | { ok: false; diagnostic: Diagnostic };

/**
 * What the labs step gave: each lab's test table, by id (a lab with variants: its variant v1's),
 * and each variant's of a lab with variants; `cached` counts tables (a variant's each).
 */
export type LabTablesOutcome =
  | { ok: true; tables: ReadonlyMap<string, LabTable>; variants?: ReadonlyMap<string, readonly VariantTable[]>; cached: number }
  | { ok: false; packets: string[]; diagnostic: Diagnostic; exitCode: number };

/** What loading the packets gave. */
export interface LoadedPackets {
  /** The packets of every kind; drills run no code (no zip, no rehearsal: a page and a reviewer key). */
  packets: Packet[];
  sources: readonly { id: string; dir: string }[];
  diagnostics: Diagnostic[];
}

/** The parts of a build that reach outside, passed in. */
export interface BuildSteps {
  /**
   * Load and validate the packets (frontmatter, cross-file checks, trees): those of `ids` when
   * given (an id the folder does not hold is a PK114 diagnostic), else every packet of the folder.
   */
  load(ids?: readonly string[]): Promise<LoadedPackets>;
  /** The rest of `packet check` on the loaded packets: file names, lint and version drift. */
  lint(packets: readonly Packet[]): Promise<Diagnostic[]>;
  /** The offline rehearsal (cached); absent with `--skip-rehearse`. */
  rehearse?(packets: CodePacket[]): Promise<RehearsalOutcome>;
  /** The labs' test tables (cached, shared with the rehearsal): every combination run in the sandbox. Without it, lab pages have no table. */
  labTables?(labs: Lab[]): Promise<LabTablesOutcome>;
  /** The last rehearsal report on disk, for the reviewer bundles of a build that skips the rehearsal. */
  lastReport(): Promise<RehearsalReport | undefined>;
  /** A packet's last mutation run on disk (`packet mutate`), for its reviewer bundle; none when absent. */
  lastMutation?(packet: CodePacket): Promise<Omit<MutationEvidence, 'stale'> | undefined>;
  /** The Astro build into `outDir`, with the manifest at `manifestFile`; `signal` stops it. */
  buildSite(args: { outDir: string; manifestFile: string; signal: AbortSignal }): Promise<SiteBuildResult>;
  /** The site's search index of the packets, written into `outputDir`; absent: the site has none. */
  searchIndex?(packets: readonly CodePacket[], outputDir: string): Promise<SearchIndexResult>;
}

/**
 * Observes a build. Every hook is optional; the build never depends on one. The CLI's terminal
 * lines are one (src/bundle/build-reporter.ts).
 */
export interface BuildReporter extends RunMessages {
  /** Awaited before the build loads its modules (the Astro child is already starting). */
  onRunStart?(): void | Promise<void>;
  /** One progress line of a step (`build: check ...`), or of a packet of the rehearsal that does not fail closed. */
  onLine?(line: string): void;
  /** How the build ended, after how many seconds. */
  onRunEnd?(end: { result: BuildResult; seconds: number; outDir: string; reviewerDir: string }): void;
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
  /** Told of each step's line and of the diagnostics worth showing as they come (check warnings, refusals, leaks). */
  reporter: BuildReporter;
  /** Aborting stops the build at the next step (and the Astro child at once); the previous output is kept. */
  signal: AbortSignal;
  /**
   * The packets to build (`packet build <id>...`); every packet of the folder when absent or
   * empty. Only these are checked, rehearsed, zipped, indexed and bundled, and the published pair
   * holds only these: a bad packet outside them never stops the build.
   */
  ids?: readonly string[];
  /** Monotonic milliseconds, for step times. */
  now(): number;
  /** Suffix of the staging folders' names; the process id. */
  tag: string;
  /** Observes the publish step (tests kill the process in it). */
  publishHooks?: PublishHooks;
  /** What the site publishes of the kit's own (docs, schemas): lines there are no leak of a packet (see collectCanaries). */
  kitTexts?: readonly string[];
  /** Results of earlier canary scans, for files whose bytes and canaries did not change. */
  canaryCache?: CanaryCache;
  /** `--variants N`: the variants made of every packet with parameters, over its `variants.count`. */
  variants?: number;
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

/** Finish or undo a publish a killed build left, then remove what killed builds left in staging. */
export function recoverTargets(outDir: string, reviewerDir: string): string[] {
  const lines: string[] = [];
  const publishLine = recoverPublish(outDir);
  if (publishLine) lines.push(publishLine);
  for (const target of [outDir, reviewerDir]) lines.push(...recoverStale(target));
  return lines;
}

/** Run a build. Never throws for a packet's problem: the result names the step and the packets. */
export async function runBuild(options: BuildOptions): Promise<BuildResult> {
  const run = startRun(options);
  const site = siblingNames(options.outDir, options.tag);
  const reviewer = siblingNames(options.reviewerDir, options.tag);
  const searchDir = siblingNames(options.outDir, options.tag).search;
  try {
    // The recovery and the probe of the folders belong to the publish: a fault there is reported as its.
    run.current = 'publish';
    for (const line of recoverTargets(options.outDir, options.reviewerDir)) options.reporter.onLine?.(`build: ${line}\n`);
    // Both folders' parents must take the staging folders, before any packet is worked on.
    for (const staging of [site.staging, reviewer.staging]) {
      await mkdir(path.dirname(staging), { recursive: true });
      await mkdir(staging);
      await rm(staging, { recursive: true });
    }
    run.current = undefined;
    // 1a. check: load and validate. Nothing starts unless every packet is valid.
    run.gate();
    const ids = options.ids?.length ? [...new Set(options.ids)] : undefined;
    const loaded = await run.timed('check', () => options.steps.load(ids));
    if (ids) unknownGate(run, options, ids, loaded);
    if (loaded.diagnostics.some((d) => d.severity === 'error')) {
      options.reporter.onPacketDiagnostics?.(loaded.diagnostics);
      checkGate(run, options.cwd, loaded, loaded.diagnostics);
    }
    const packets = codePackets(loaded.packets);
    // 2. the rehearsal starts now, in its sandboxes.
    const rehearse = options.steps.rehearse;
    // A packet with variants is rehearsed variant by variant, with the leak check (src/rehearse/rehearse-variants.ts).
    const rehearsal = rehearse ? settle(run.timed('rehearse', () => rehearse(packets))) : undefined;
    if (rehearsal) run.pending.push(rehearsal);
    const drills = packetsOfKind(loaded.packets, 'drill');
    const labs = packetsOfKind(packets, 'lab').filter((p) => p.lab);
    const labTables = options.steps.labTables;
    const tabled = labs.length && labTables ? settle(run.timed('labs', () => labTables(labs))) : undefined;
    if (tabled) run.pending.push(tabled);
    // 3 and 4. the zips into a fresh staging folder, then the site starts building on them.
    const { zipped, siteBuild } = await zipsAndSite(run, options, packets, site.staging, rehearse ? 'fails-closed' : 'not-rehearsed');
    // The search index is made from the packets, beside the staging folder, while Astro builds the pages.
    const searchIndex = options.steps.searchIndex;
    // A packet with variants is found by its variant v1's words, the ones its page shows (never a placeholder).
    const shownPackets = siteBuild ? packets.map((p) => unwrap(zipped).variants.get(p.id)?.[0]?.rendered.packet ?? p) : packets;
    const search = searchIndex && siteBuild ? settle(run.timed('search', () => searchIndex(shownPackets, searchDir))) : undefined;
    if (search) run.pending.push(search);
    // 1b. meanwhile: the lint, then the check gate.
    const checkDiagnostics = [...loaded.diagnostics, ...unwrap(await settle(run.timed('check', () => options.steps.lint(loaded.packets))))];
    options.reporter.onPacketDiagnostics?.(checkDiagnostics);
    checkGate(run, options.cwd, loaded, checkDiagnostics);
    const valid = packets.length + drills.length;
    options.reporter.onLine?.(`build: check      ${valid} packet${valid === 1 ? '' : 's'} valid ${run.secs('check')}\n`);
    const report = await rehearsalGate(run, options, rehearsal);
    const { tables, variants: labVariants } = await labsGate(run, options, labs, tabled);
    const zips = zipsGate(run, options, packets, zipped);
    // 6a. while Astro runs: the reviewer bundles (into their own staging folder) and the canaries.
    run.gate();
    const lastReport = report ?? (await options.steps.lastReport());
    run.current = 'reviewer';
    await rm(reviewer.staging, { recursive: true, force: true });
    await mkdir(reviewer.staging, { recursive: true });
    const bundled = await settle(
      run.timed('reviewer', async () =>
        buildReviewerBundles({
          packets,
          drills,
          zips,
          report: lastReport,
          mutation: async (packet) => await options.steps.lastMutation?.(packet),
          tables,
          labVariants,
          reader: options.reader,
          variants: unwrap(zipped).variants,
          dir: reviewer.staging,
          ...(options.zipCache ? { cache: options.zipCache } : {}),
        }),
      ),
    );
    // Secret texts that are not files (each lab suggestion's and drill diff's key), and public
    // texts that are not packet files (the offered suggestions, the drills' pages, the kit's own docs).
    // A lab with variants publishes every variant's page: each variant's key is secret, its suggestions public.
    const labVariantPackets = [...labVariants.values()].flatMap((vs) => vs.map((v) => v.lab));
    const keyed = [...packetsOfKind(packets, 'lab'), ...labVariantPackets, ...drills];
    const extra = {
      secret: [...keyed.flatMap(keyTexts), ...drills.flatMap(reviewerNotesTexts)],
      public: [...keyed.flatMap(assistantPublicTexts), ...drills.flatMap((d) => [d.prompt.text, publicRubricText(d.rubric.text, splitRubricBody(d.rubric))]), ...(options.kitTexts ?? [])],
    };
    // A packet with variants ships its first variant's zip: its rendered secret lines are searched too,
    // and a lab's every variant's, whose pages the site has.
    const shipped = [...unwrap(zipped).variants].flatMap(([id, v]) => (labVariants.has(id) ? v : v.slice(0, 1)).map((z) => z.rendered));
    const canaries = await settle(run.timed('canary', () => collectCanaries([...packets.map((packet) => ({ packet, read: options.reader(packet) })), ...shipped], extra)));
    // The zips are searched now, while Astro runs; after it, what it added (and anything changed).
    const zipsScanned = canaries.ok ? await settle(run.timed('canary', () => scanFilesForCanaries(new Map([...zips.values()].map((z) => [`${ZIPS_DIR}/${z.name}`, z.bytes])), canaries.value))) : undefined;
    await siteGate(run, options, siteBuild!, site.staging);
    // The candidate's test table of each lab, beside its pages (the held-out results and the key go to the reviewer bundle only).
    run.current = 'labs';
    // A lab with variants: v1's at the lab's own path, variant k's at /packets/<id>/v<k>/.
    for (const [id, table] of tables) {
      const each = labVariants.get(id)?.map((v) => ({ number: v.number, table: v.table })) ?? [{ number: 1, table }];
      for (const v of each) {
        const file = path.join(site.staging, ...labTablePath(id, v.number).split('/').filter(Boolean));
        await mkdir(path.dirname(file), { recursive: true });
        await writeFileAt(file, `${JSON.stringify(candidateTable(v.table))}\n`);
      }
    }
    if (search) await searchGate(run, options, packets, search, searchDir, site.staging);
    await canaryGate(run, options, packets, site.staging, unwrap(canaries), zipsScanned && unwrap(zipsScanned));
    const bundles = reviewerGate(run, options, packets, drills, bundled);
    // 7. publish the pair: synchronous, journaled.
    run.gate();
    await run.timed('publish', async () => {
      await mkdir(path.dirname(options.outDir), { recursive: true });
      await mkdir(path.dirname(options.reviewerDir), { recursive: true });
      run.gate();
      try {
        const left = publish([{ target: options.outDir, staging: site.staging }, { target: options.reviewerDir, staging: reviewer.staging }], options.tag, options.publishHooks);
        for (const line of left) options.reporter.onLine?.(`build: publish    ${line}\n`);
      } catch (err) {
        if (!(err instanceof PublishBusyError)) throw err;
        const folder = `${run.rel(options.outDir)}/`;
        throw new StepFailure('publish', [], diagnose(BundleErrors.PublishBusy, { file: run.rel(options.outDir) }, { folder, pid: err.pid }), 2);
      }
    });
    options.reporter.onLine?.(`build: publish    ${run.rel(options.outDir)}/ and ${run.rel(options.reviewerDir)}/ replaced as a pair\n`);
    return { ok: true, durations: run.durations, packets: built(packets, zips, bundles, rehearse ? 'fails-closed' : 'not-rehearsed') };
  } catch (thrown) {
    const err = outputFault(run, options, thrown) ?? thrown;
    if (!(err instanceof StepFailure)) throw err;
    const failure = options.signal.aborted && err.step !== 'interrupted' ? run.interrupted() : err;
    return { ok: false, step: failure.step, packets: failure.packets, diagnostic: failure.diagnostic, exitCode: failure.exitCode, durations: run.durations };
  } finally {
    // Nothing may still write into a staging folder when it is removed.
    run.stop.abort('build stopped');
    await Promise.all(run.pending);
    run.detach();
    for (const dir of [site.staging, reviewer.staging, searchDir]) await removeWorkFolder(options, dir);
  }
}

/** Write a file of the build's, its path on the error (a full disk's names none). */
async function writeFileAt(file: string, text: string): Promise<void> {
  await writeFile(file, text).catch((err: unknown) => {
    throw atPath(err, file);
  });
}

/** Remove a work folder of the build; one that cannot be (a fault of its disk) is named, not thrown over the build's result. */
async function removeWorkFolder(options: BuildOptions, dir: string): Promise<void> {
  try {
    await rm(dir, { recursive: true, force: true });
  } catch (err) {
    const fault = fsFault(err);
    if (!fault) throw err;
    if (fault.errno === 'ENOTDIR') return; // a file stands in its parent's place: the folder cannot exist
    options.reporter.onLine?.(`build: could not remove ${path.relative(options.cwd, dir)} (${fault.reason}): remove it by hand\n`);
  }
}

/**
 * A file system fault (unwritable, full, vanished) in one of the build's own folders (a target,
 * its staging, aside or search folder, its lock or journal) as the failure that names the target
 * and the fix, exit 2; anything else is left as it is.
 */
function outputFault(run: BuildRun, options: BuildOptions, err: unknown): StepFailure | undefined {
  if (err instanceof StepFailure) return undefined;
  const fault = fsFault(err);
  const dest = (err as { dest?: unknown }).dest;
  if (!fault) return undefined;
  const within = (p: string | undefined, target: string) => {
    if (!p) return false;
    const abs = path.resolve(p);
    return abs === target || abs.startsWith(`${target}${path.sep}`) || abs.startsWith(path.join(path.dirname(target), `.${path.basename(target)}-`)) || target.startsWith(`${abs}${path.sep}`);
  };
  const paths = [fault.path, typeof dest === 'string' ? dest : undefined];
  const target = [options.outDir, options.reviewerDir].find((t) => paths.some((p) => within(p, t)));
  if (!target) return undefined;
  const at = fault.path && path.resolve(fault.path) !== target ? ` (at ${run.rel(fault.path)})` : '';
  const diagnostic = diagnose(BundleErrors.BuildOutputUnwritable, { file: run.rel(target) }, { folder: `${run.rel(target)}/`, reason: `${fault.reason}${at}`, fix: fault.fix });
  return new StepFailure(run.current ?? 'check', [], diagnostic, 2);
}

/** A selection naming a packet the folder does not hold stops the build at once, with PK114 (exit 2, as a wrong argument). */
function unknownGate(run: BuildRun, options: BuildOptions, ids: readonly string[], loaded: LoadedPackets): void {
  const unknown = ids.filter((id) => !loaded.sources.some((s) => s.id === id));
  if (!unknown.length) return;
  const said = loaded.diagnostics.filter((d) => d.name === 'UnknownPacket');
  const diagnostics = said.length ? said : unknown.map((id) => diagnose(Errors.UnknownPacket, { file: run.rel(options.cwd) }, { id, known: loaded.sources.map((s) => s.id).join(', ') || '(none)' }));
  options.reporter.onPacketDiagnostics?.(diagnostics);
  throw new StepFailure('check', unknown, diagnostics[0]!, 2);
}

/** Throw the check failure when the diagnostics hold an error. */
function checkGate(run: BuildRun, cwd: string, loaded: LoadedPackets, list: readonly Diagnostic[]): void {
  const errors = list.filter((d) => d.severity === 'error');
  if (!errors.length) return;
  const names = packetNamesOf(errors, loaded.sources);
  throw new StepFailure('check', names, diagnose(BundleErrors.BuildCheckFailed, { file: run.rel(cwd) }, { errors: errors.length, packets: names.join(', ') }));
}

/**
 * Steps 3 and 4 started: the candidate zips and the manifest in a fresh staging folder, then, on
 * a complete set of zips, the Astro build in its own process (not awaited).
 */
async function zipsAndSite(
  run: BuildRun,
  options: BuildOptions,
  packets: readonly CodePacket[],
  staging: string,
  rehearsal: RehearsalStatus,
): Promise<{ zipped: Settled<CandidateZips>; siteBuild: Promise<Settled<SiteBuildResult>> | undefined }> {
  run.gate();
  run.current = 'zips';
  await rm(staging, { recursive: true, force: true });
  await mkdir(path.join(staging, ZIPS_DIR), { recursive: true });
  const zipped = await settle(run.timed('zips', () => buildCandidateZips(packets, options.reader, staging, options.zipCache, options.variants)));
  if (!zipped.ok || zipped.value.refused.length) return { zipped, siteBuild: undefined };
  const manifestFile = path.join(staging, MANIFEST_FILE);
  const search = options.steps.searchIndex ? { engine: 'pagefind' as const, path: `${SEARCH_DIR}/` } : undefined;
  await writeFileAt(manifestFile, manifestJson(buildManifest(manifestEntries(packets, zipped.value.zips, rehearsal, zipped.value.variants), search)));
  run.gate();
  const siteBuild = settle(run.timed('site', () => options.steps.buildSite({ outDir: staging, manifestFile, signal: run.stop.signal })));
  run.pending.push(siteBuild);
  for (const { key, zip } of zipped.value.toCache) await options.zipCache?.set(key, zip);
  return { zipped, siteBuild };
}

/** The rehearsal's gate: every packet fails closed, or the build stops (exit 2 when inconclusive). */
async function rehearsalGate(run: BuildRun, options: BuildOptions, rehearsal: Promise<Settled<RehearsalOutcome>> | undefined): Promise<RehearsalReport | undefined> {
  if (!rehearsal) {
    options.reporter.onLine?.('build: rehearse   skipped (--skip-rehearse): every packet is marked "not rehearsed"\n');
    return undefined;
  }
  const outcome = unwrap(await rehearsal);
  if (!outcome.ok) throw new StepFailure('rehearse', [], outcome.diagnostic, 2);
  const report = outcome.report;
  const bad = report.packets.filter((p) => p.status !== 'fails-closed');
  if (bad.length) {
    const list = bad.map((p) => `${p.id} (${p.status})`).join(', ');
    throw new StepFailure(
      'rehearse',
      bad.map((p) => p.id),
      diagnose(BundleErrors.BuildRehearsalFailed, { file: run.rel(options.cwd) }, { packets: list, status: bad.length === 1 ? 'does not fail closed' : 'do not fail closed' }),
      bad.some((p) => p.status === 'inconclusive') ? 2 : 1,
    );
  }
  options.reporter.onLine?.(`build: rehearse   ${report.summary.failsClosed} fail closed (${report.summary.cached} cached) ${run.secs('rehearse')}\n`);
  return report;
}

/** The labs' gate: every lab has its test table (a lab with variants, every variant's), or the build stops naming the lab. */
async function labsGate(
  run: BuildRun,
  options: BuildOptions,
  labs: readonly Lab[],
  tabled: Promise<Settled<LabTablesOutcome>> | undefined,
): Promise<{ tables: ReadonlyMap<string, LabTable>; variants: ReadonlyMap<string, readonly VariantTable[]> }> {
  if (!tabled) {
    if (labs.length) options.reporter.onLine?.(`build: labs       skipped: no sandbox step, so ${labs.length} lab page${labs.length === 1 ? ' has' : 's have'} no test table\n`);
    return { tables: new Map(), variants: new Map() };
  }
  const outcome = unwrap(await tabled);
  if (!outcome.ok) throw new StepFailure('labs', outcome.packets, outcome.diagnostic, outcome.exitCode);
  const variants = outcome.variants ?? new Map<string, readonly VariantTable[]>();
  const all = [...outcome.tables].flatMap(([id, t]) => variants.get(id)?.map((v) => v.table) ?? [t]);
  const combos = all.reduce((sum, t) => sum + t.combinations.length, 0);
  const ofVariants = [...variants.values()].reduce((sum, v) => sum + v.length, 0);
  const withVariants = ofVariants ? `, ${ofVariants} of them variants of ${variants.size} lab${variants.size === 1 ? '' : 's'}` : '';
  options.reporter.onLine?.(`build: labs       ${all.length} lab table${all.length === 1 ? '' : 's'}${withVariants}, ${combos} combinations (${outcome.cached} cached) ${run.secs('labs')}\n`);
  return { tables: outcome.tables, variants };
}

/** The zips' gate: every packet has its zip, or the build stops naming the refused files. */
function zipsGate(run: BuildRun, options: BuildOptions, packets: readonly CodePacket[], zipped: Settled<CandidateZips>): Map<string, CachedZip> {
  const { zips, refused } = unwrap(zipped);
  if (refused.length) {
    options.reporter.onPacketDiagnostics?.(refused);
    throw new StepFailure('zips', packets.filter((p) => !zips.has(p.id)).map((p) => p.id), refused[0]!);
  }
  const total = [...zips.values()].reduce((sum, z) => sum + z.bytes.byteLength, 0);
  options.reporter.onLine?.(`build: zips       ${zips.size} candidate zip${zips.size === 1 ? '' : 's'}, ${kb(total)}, and ${MANIFEST_FILE} ${run.secs('zips')}\n`);
  return zips;
}

/** The site's gate: Astro built the pages into the staging folder, or the build stops with its output. */
async function siteGate(run: BuildRun, options: BuildOptions, siteBuild: Promise<Settled<SiteBuildResult>>, staging: string): Promise<void> {
  const result = unwrap(await siteBuild);
  run.gate();
  const output = result.output.trim();
  if (output) options.reporter.onLine?.(output.replace(/^/gm, '  astro: ') + '\n');
  if (!result.ok) throw new StepFailure('site', [], diagnose(BundleErrors.SiteBuildFailed, { file: run.rel(options.outDir) }, { reason: result.reason }));
  options.reporter.onLine?.(`build: site       astro build into ${run.rel(staging)} ${run.secs('site')}\n`);
}

/** Pagefind's files the site does not use: its ready-made interfaces (the catalog has its own). */
const UNUSED_SEARCH_FILES = /^pagefind-(component-ui|modular-ui|ui|highlight)\.(js|css)$/;

/** The search index's gate: made, then moved into the site (before the canary scan, which opens it). */
async function searchGate(run: BuildRun, options: BuildOptions, packets: readonly CodePacket[], search: Promise<Settled<SearchIndexResult>>, dir: string, staging: string): Promise<void> {
  const result = unwrap(await search);
  run.gate();
  run.current = 'search';
  if (!result.ok) throw new StepFailure('search', [], diagnose(BundleErrors.SearchIndexFailed, { file: run.rel(options.outDir) }, { reason: result.reason }));
  for (const name of await readdir(dir)) if (UNUSED_SEARCH_FILES.test(name)) await rm(path.join(dir, name));
  await rename(dir, path.join(staging, SEARCH_DIR));
  options.reporter.onLine?.(`build: search     ${packets.length} packet${packets.length === 1 ? '' : 's'} in the search index, ${SEARCH_DIR}/ ${run.secs('search')}\n`);
}

/** The canary scan over everything that would be published; a leak stops the build. */
async function canaryGate(run: BuildRun, options: BuildOptions, packets: readonly CodePacket[], staging: string, canaries: Canary[], zipsScanned: ScannedFiles | undefined): Promise<void> {
  const scan = await run.timed('canary', () => scanDirForCanaries(staging, canaries, zipsScanned, options.canaryCache));
  if (scan.leaks.length) {
    const site = run.rel(options.outDir);
    const diags = scan.leaks.map((l) => ({ ...diagnose(BundleErrors.CanaryLeak, { file: `${site}/${l.where}` }, { where: `${site}/${l.where}`, source: l.source }), sensitive: true }));
    options.reporter.onPacketDiagnostics?.(diags);
    const ids = [...new Set(scan.leaks.map((l) => packets.find((p) => l.source.startsWith(`${p.dir}/`))?.id ?? l.source))];
    throw new StepFailure('canary', ids, diags[0]!);
  }
  options.reporter.onLine?.(`build: canary     ${scan.canaries} secret lines searched in ${scan.files} files (${kb(scan.bytes)}), zips opened: no leak ${run.secs('canary')}\n`);
}

/** The reviewer bundles' gate: every packet has its bundle, or the build stops naming the refused files. */
function reviewerGate(run: BuildRun, options: BuildOptions, packets: readonly CodePacket[], drills: readonly PacketOf<'drill'>[], bundled: Settled<ReviewerBundles>): Map<string, CachedZip> {
  const { bundles, refused } = unwrap(bundled);
  if (refused.length) {
    options.reporter.onPacketDiagnostics?.(refused);
    throw new StepFailure('reviewer', packets.filter((p) => !bundles.has(p.id)).map((p) => p.id), refused[0]!);
  }
  options.reporter.onLine?.(`build: reviewer   ${bundles.size} reviewer bundle${bundles.size === 1 ? '' : 's'}${drills.length ? ` (${drills.length} of drills)` : ''} ${run.secs('reviewer')}\n`);
  return bundles;
}

/** What the build gave for each packet. */
function built(packets: readonly CodePacket[], zips: ReadonlyMap<string, CachedZip>, bundles: ReadonlyMap<string, CachedZip>, rehearsal: RehearsalStatus): BuiltPacket[] {
  return manifestEntries(packets, zips, rehearsal).map((e) => ({
    id: e.id,
    version: e.version,
    zip: { name: e.zip, size: e.size, sha256: e.sha256 },
    reviewer: { name: bundles.get(e.id)!.name, size: bundles.get(e.id)!.bytes.byteLength },
    rehearsal: e.rehearsal,
  }));
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
