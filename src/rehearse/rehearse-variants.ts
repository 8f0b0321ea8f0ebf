/**
 * The rehearsal of a packet with variants: every variant is rendered (packetVariants), written to
 * a folder of its own and rehearsed as a packet of its own, each cached by its digest. Then:
 *
 * - the leak check: for a few pairs of variants (each against the next, at most LEAK_PAIRS), the
 *   answer of variant A (a take-home's sample; a lab's key, its right choices composed into the
 *   files its suggestions change) is laid over variant B's starter and judged with B's hidden
 *   tests, by the one judge (judgeRun). It must fail; a pass means the parameters do not reach
 *   the tests (PK159);
 * - the weaker variants: a check that holds in one variant and fails in another is a defect of the
 *   variant where it fails, naming its values (PK158).
 *
 * The packet's report holds every variant's checks, each id prefixed with the variant's id.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LimitFunction } from 'p-limit';
import { VariantErrors } from '../errors/variants-catalog.ts';
import { judgeRun } from '../judge/judge-run.ts';
import type { TestRunner } from '../judge/run-tests.ts';
import { loadPacketFiles } from '../judge/workspace.ts';
import { composeLab } from '../packets/lab-compose.ts';
import { keyCombination } from '../packets/lab-model.ts';
import { labModelOf, type CodePacket } from '../packets/packet.ts';
import { valuesText } from '../packets/variants-check.ts';
import { packetVariants, renderVariant, type PacketVariant } from '../packets/variants-render.ts';
import { placeholderValues, renderTemplate, variantValues, type VariantValues } from '../packets/variants.ts';
import { defect } from './defect.ts';
import { statusOf, type CheckResult, type CheckVariant, type PacketReport, type VariantReport } from './report.ts';

/** Leak checks per packet at most: variant k against k+1, for k = 1, 2, 3. */
export const LEAK_PAIRS = 3;

/** The variant whose scripted replies are rehearsed: the first (the others share the replies' words, with their own values). */
export const REPLY_VARIANT = 1;

/**
 * A packet's entry for the embedded scripted endpoint: its folder and reply files, and for a
 * packet with variants the rendering of each reply as variant {@link REPLY_VARIANT} sees it.
 */
export function replySource(packet: CodePacket, dir: string): { id: string; dir: string; replies: readonly string[]; render?: (text: string) => string } {
  const spec = packet.prompt.data.variants;
  if (!spec) return { id: packet.id, dir, replies: packet.trees.replies };
  const values = placeholderValues(REPLY_VARIANT, variantValues(packet.prompt.data.seed, spec, REPLY_VARIANT));
  return { id: packet.id, dir, replies: packet.trees.replies, render: (text) => renderTemplate(text, values) };
}

/**
 * What a live model run (`packet rehearse --model`) is given of a packet: for a packet with
 * variants, variant {@link REPLY_VARIANT} rendered (the one whose scripted replies the embedded
 * endpoint serves, see {@link replySource}), written to a folder of its own under `scratchDir`,
 * so the model reads its prompt and starter and is judged by its tests, every placeholder
 * written in; for a packet without, the packet and its own folder. Never the template files.
 */
export async function modelRunVariant(packet: CodePacket, dir: string, scratchDir: string): Promise<{ packet: CodePacket; dir: string; variant?: CheckVariant }> {
  const spec = packet.prompt.data.variants;
  if (!spec) return { packet, dir };
  const read = async (rel: string) => readFile(path.join(dir, rel)).then((b) => new Uint8Array(b), () => undefined);
  const r = await renderVariant(packet, read, REPLY_VARIANT, variantValues(packet.prompt.data.seed, spec, REPLY_VARIANT));
  if (!r.variant) {
    const reason = r.diagnostics.find((d) => d.severity === 'error')?.message ?? 'its files do not parse';
    throw new Error(`${packet.id}: variant ${r.id} (${valuesText(r.values)}) is not a valid packet once its values are written in: ${reason}`);
  }
  const out = path.join(scratchDir, 'variants', `${packet.id}-${r.id}`);
  await writeVariant(r.variant, out);
  return { packet: r.variant.packet, dir: out, variant: variantOf(r.variant) };
}

/** The pairs the leak check judges (the sample of the first over the second): each variant against the next, at most `cap`. */
export function leakPairs(count: number, cap = LEAK_PAIRS): [number, number][] {
  const out: [number, number][] = [];
  for (let k = 1; k < count && out.length < cap; k++) out.push([k, k + 1]);
  return out;
}

/** What rehearsing a packet's variants needs. */
export interface VariantsRehearsal {
  packet: CodePacket;
  /** Absolute path of the packet folder (its template files). */
  packetDir: string;
  /** How many variants (default: the packet's `variants.count`). */
  count?: number;
  /** Where each variant's rendered folder is written. */
  scratchDir: string;
  runner: TestRunner;
  limit: LimitFunction;
  now: () => number;
  random?: () => number;
  /** Rehearse one variant as a packet of its own, from its rendered folder (cached by its digest). */
  rehearseVariant: (variant: PacketVariant, dir: string) => Promise<PacketReport>;
  /** A leak check's cached result, by the digests of its pair. */
  leakCache: { get(digest: string): Promise<CheckResult | undefined>; set(digest: string, check: CheckResult): Promise<void> };
  /** Told about each check (prefixed and named by its variant) as it is known. */
  onCheck?: (check: CheckResult) => void;
}

const variantOf = (v: { id: string; values: VariantValues }): CheckVariant => ({ id: v.id, values: { ...v.values } });

/** A variant's check as the packet's report holds it: its id prefixed, its variant named, its defect saying which variant. */
export function variantCheck(v: { id: string; values: VariantValues }, c: CheckResult): CheckResult {
  const named = `Variant ${v.id} (${valuesText(v.values)})`;
  return { ...c, id: `${v.id}:${c.id}`, variant: variantOf(v), ...(c.defect ? { defect: `${named}: ${c.defect}` } : {}) };
}

/** The digest a leak check of the pair (a over b) is cached under; a lab's (the key's answer laid out, not a sample) under its own. */
export function leakDigest(a: string, b: string, answer: 'sample' | 'key' = 'sample'): string {
  return createHash('sha256').update(`packet-kit/leak${answer === 'key' ? '-key' : ''}\n${a}\n${b}`).digest('hex');
}

/** Write a variant's rendered files under `dir` (the paths are the packet's own entries). */
async function writeVariant(v: PacketVariant, dir: string): Promise<void> {
  for (const [rel, bytes] of v.files) {
    const target = path.join(dir, rel);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, bytes);
  }
}

/**
 * What the leak check lays over the other variant's starter as variant `a`'s answer: a take-home's
 * sample (its `sample/` files); a lab's key, its suggestions' right choices composed into the
 * files they change (a lab has no sample: its answer is the key's combination).
 */
export function answerOf(a: PacketVariant): { files: Map<string, Buffer>; words: string } | { missing: string } {
  if (a.packet.kind === 'lab') {
    const model = labModelOf(a.packet);
    if (!model) return { missing: `the suggestions of ${a.id} do not resolve against its starter` };
    const files = new Map<string, Buffer>();
    for (const [rel, text] of composeLab(model, keyCombination(model))) files.set(rel, Buffer.from(text, 'utf8'));
    return { files, words: "The key's answer" };
  }
  const files = new Map<string, Buffer>();
  for (const [rel, bytes] of a.files) if (rel.startsWith('sample/')) files.set(rel.slice('sample/'.length), Buffer.from(bytes));
  return { files, words: 'The sample' };
}

/** The leak check of a pair: the answer of `a` ({@link answerOf}) over the starter of `b`, judged with `b`'s hidden tests, must not pass. */
export async function leakCheck(r: Pick<VariantsRehearsal, 'runner' | 'limit' | 'now' | 'random' | 'scratchDir'>, a: PacketVariant, b: PacketVariant, bDir: string): Promise<CheckResult> {
  const t0 = r.now();
  const answer = answerOf(a);
  const what = a.packet.kind === 'lab' ? `the key's answer of ${a.id}` : `the sample of ${a.id}`;
  const base = {
    id: `leak:${a.id}>${b.id}`,
    kind: 'leak' as const,
    variant: variantOf(b),
    expected: `red: ${what} fails the tests of ${b.id}, hidden ones included`,
  };
  if ('missing' in answer) return { ...base, durationMs: r.now() - t0, ok: false, inconclusive: true, actual: `no answer to lay out: ${answer.missing}` };
  const files = await loadPacketFiles(b.packet, bDir);
  const judged = await judgeRun({ files, submission: { files: answer.files, deleted: [] }, withHidden: true, runner: r.runner, scratchDir: r.scratchDir, random: r.random ?? Math.random, now: r.now, schedule: (fn) => r.limit(fn) });
  const timed = { ...base, durationMs: r.now() - t0 };
  if ('rejected' in judged) return { ...timed, ok: false, inconclusive: true, actual: `the files could not be laid out: ${judged.rejected}` };
  const j = judged.judgement;
  const infra = j.findings.find((f) => f.kind === 'infra');
  if (infra) return { ...timed, ok: false, inconclusive: true, actual: infra.message, tests: j.tests };
  if (j.testsGreen) {
    return {
      ...timed,
      ...defect(VariantErrors.VariantAnswerCrosses, { answer: answer.words, from: a.id, fromValues: valuesText(a.values), to: b.id, toValues: valuesText(b.values) }),
      actual: `passed: ${j.description}`,
      tests: j.tests,
      outputTail: judged.outputTail,
    };
  }
  return { ...timed, ok: true, actual: `failed: ${j.description}`, tests: j.tests };
}

/**
 * The digest of what judges a variant: its test command and every file of starter/ (the visible
 * tests among them) and hidden/, by path. Two variants with the same one are the same task to the
 * judge, whatever their prompts say: any answer of one passes the other.
 */
export function judgedDigest(v: Pick<PacketVariant, 'files' | 'packet'>): string {
  const h = createHash('sha256').update(`packet-kit/judged\n${v.packet.prompt.data.test}\n`);
  const paths = [...v.files.keys()].filter((p) => p.startsWith('starter/') || p.startsWith('hidden/')).sort();
  for (const p of paths) h.update(`${p}\n${v.files.get(p)!.byteLength}\n`).update(v.files.get(p)!);
  return h.digest('hex');
}

/**
 * Every pair the leak check's runs would not reach, found without a run: variants whose starter,
 * hidden tests and test command are the same files (their values differ only where no test
 * looks, the prompt say). Each group of such variants is one defect (PK159) on its later
 * variants, naming the first: a copied answer between them passes, and no roster can tell.
 */
export function sameTestVariants(variants: readonly PacketVariant[]): CheckResult[] {
  const first = new Map<string, PacketVariant>();
  const out: CheckResult[] = [];
  for (const v of [...variants].sort((x, y) => x.number - y.number)) {
    const digest = judgedDigest(v);
    const a = first.get(digest);
    if (!a) {
      first.set(digest, v);
      continue;
    }
    out.push({
      id: `leak:${a.id}=${v.id}`,
      kind: 'leak',
      variant: variantOf(v),
      expected: `the tests of ${v.id} differ from those of ${a.id}`,
      actual: `starter/, hidden/ and the test command of ${v.id} are the same files as ${a.id}'s`,
      durationMs: 0,
      ...defect(VariantErrors.VariantAnswerCrosses, { answer: 'Any answer', from: a.id, fromValues: valuesText(a.values), to: v.id, toValues: valuesText(v.values) }),
    });
  }
  return out;
}

/**
 * The variants that fail closed worse than the others: a check (by its id within a variant) that
 * holds in some variant and fails in this one. A check that fails in every variant is the packet's
 * defect, told by each variant's own check; an inconclusive check compares with nothing.
 */
export function weakerVariants(rehearsed: readonly { variant: { id: string; values: VariantValues }; report: PacketReport }[]): CheckResult[] {
  const holds = new Map<string, string[]>();
  for (const { variant, report } of rehearsed) for (const c of report.checks) if (c.ok) holds.set(c.id, [...(holds.get(c.id) ?? []), variant.id]);
  const out: CheckResult[] = [];
  for (const { variant, report } of rehearsed) {
    const worse = report.checks.filter((c) => !c.ok && !c.inconclusive && holds.has(c.id));
    if (!worse.length) continue;
    const others = [...new Set(worse.flatMap((c) => holds.get(c.id)!))].sort((x, y) => x.localeCompare(y, 'en', { numeric: true }));
    out.push({
      id: `variant:${variant.id}`,
      kind: 'variant',
      variant: variantOf(variant),
      expected: 'fails closed as well as every other variant',
      actual: `fails ${worse.map((c) => c.id).join(', ')}`,
      durationMs: 0,
      ...defect(VariantErrors.VariantWeaker, { variant: variant.id, values: valuesText(variant.values), checks: worse.map((c) => c.id).join(', '), others: others.join(', ') }),
    });
  }
  return out;
}

/** Rehearse every variant of a packet, the leak check and the comparison; one report for the packet. */
export async function rehearseVariants(r: VariantsRehearsal): Promise<PacketReport> {
  const started = r.now();
  const { packet } = r;
  const read = async (rel: string) => readFile(path.join(r.packetDir, rel)).then((b) => new Uint8Array(b), () => undefined);
  const rendered = await packetVariants(packet, read, r.count);
  const checks: CheckResult[] = [];
  const push = (c: CheckResult) => {
    checks.push(c);
    r.onCheck?.(c);
  };
  // A variant whose files do not parse is refused by the check step (PK154); told here too, should one get this far.
  for (const v of rendered) {
    if (v.variant) continue;
    const reason = v.diagnostics.find((d) => d.severity === 'error')?.message ?? 'its files do not parse';
    push({ id: `variant:${v.id}`, kind: 'variant', variant: variantOf(v), expected: 'a valid packet', actual: reason, durationMs: 0, ...defect(VariantErrors.VariantDoesNotParse, { variant: v.id, values: valuesText(v.values), reason }) });
  }
  const variants = rendered.flatMap((v) => (v.variant ? [v.variant] : []));
  const dirs = new Map<number, Promise<string>>();
  const dirOf = (v: PacketVariant) => {
    let got = dirs.get(v.number);
    if (!got) {
      const dir = path.join(r.scratchDir, 'variants', `${packet.id}-${v.id}`);
      dirs.set(v.number, (got = writeVariant(v, dir).then(() => dir)));
    }
    return got;
  };
  const byNumber = new Map(variants.map((v) => [v.number, v]));
  const pairs = leakPairs(rendered.length).flatMap(([a, b]) => (byNumber.has(a) && byNumber.has(b) ? [[byNumber.get(a)!, byNumber.get(b)!] as const] : []));
  const [reports, leaks] = await Promise.all([
    Promise.all(
      variants.map(async (v) => {
        const report = await r.rehearseVariant(v, await dirOf(v));
        // Told as each variant ends; the report keeps the variants' order.
        for (const c of report.checks) r.onCheck?.(variantCheck(v, c));
        return { variant: v, report };
      }),
    ),
    Promise.all(
      pairs.map(async ([a, b]) => {
        const digest = leakDigest(a.digest, b.digest, a.packet.kind === 'lab' ? 'key' : 'sample');
        const hit = await r.leakCache.get(digest);
        const check = hit ?? (await leakCheck(r, a, b, await dirOf(b)));
        if (!hit && !check.inconclusive) await r.leakCache.set(digest, check);
        r.onCheck?.(check);
        return { check, cached: Boolean(hit) };
      }),
    ),
  ]);
  for (const { variant, report } of reports) for (const c of report.checks) checks.push(variantCheck(variant, c));
  for (const { check } of leaks) checks.push(check);
  for (const c of sameTestVariants(variants)) push(c);
  for (const c of weakerVariants(reports)) push(c);
  const variantReports: VariantReport[] = reports.map(({ variant, report }) => ({ ...variantOf(variant), number: variant.number, digest: variant.digest, status: report.status, cached: report.cached, durationMs: report.durationMs }));
  return {
    id: packet.id,
    version: packet.prompt.data.version,
    digest: packet.digest,
    status: statusOf(checks),
    checks,
    defects: checks.filter((c) => c.defect).map((c) => (c.code ? `${c.code} ${c.defect!}` : c.defect!)),
    cached: reports.every((x) => x.report.cached) && leaks.every((l) => l.cached),
    durationMs: r.now() - started,
    variants: variantReports,
  };
}
