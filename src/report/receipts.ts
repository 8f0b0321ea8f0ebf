/**
 * The receipts a report names (usage.jsonl, ledger.json, give_up.json), copied into the HTML
 * report's folder so its links work wherever the folder goes (a CI artifact, file://). A path is
 * copied only when it is relative, has no `..`, and names a regular file (no link followed, in
 * the path or at its end) of at most `maxBytes`, under the base folder; otherwise the report shows
 * the path without a link. A report is data from elsewhere: it must not pull other files along.
 */
import { copyFile, lstat, mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { ModelRunReport } from '../rehearse/report.ts';
import type { ReceiptLink, ReceiptLinker } from './view.ts';

/** Where the copies go, inside the report's folder. */
export const RECEIPTS_DIR = 'receipts';

/** A receipt path safe to copy: relative, forward slashes, no empty, `.` or `..` segment. */
export function safeReceiptPath(p: string): boolean {
  if (!p || path.isAbsolute(p) || p.includes('\\') || p.includes('\0')) return false;
  return p.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/** Every receipt path a report names. */
export function receiptPaths(report: { packets: { checks: { model?: ModelRunReport }[] }[]; models?: ModelRunReport[] }): string[] {
  const runs = [...report.packets.flatMap((p) => p.checks.flatMap((c) => (c.model ? [c.model] : []))), ...(report.models ?? [])];
  return [...new Set(runs.flatMap((r) => [r.receipts.usage, r.receipts.ledger, r.receipts.giveUp].filter((x): x is string => x !== null)))].sort();
}

/** Copy the receipts found under `baseDir` into `<outDir>/receipts/`, and return the linker for the report's view. */
export async function copyReceipts(paths: readonly string[], o: { baseDir: string; outDir: string; maxBytes?: number }): Promise<{ linker: ReceiptLinker; copied: number; missing: string[] }> {
  const max = o.maxBytes ?? 16 * 1024 * 1024;
  const hrefs = new Map<string, string>();
  const missing: string[] = [];
  const base = await realpath(o.baseDir).catch(() => null);
  for (const p of paths) {
    if (!safeReceiptPath(p)) {
      missing.push(p);
      continue;
    }
    const from = path.join(o.baseDir, ...p.split('/'));
    const st = await lstat(from).catch(() => undefined);
    // A folder on the way that is a link would lead out of the base folder: the real path must stay inside it.
    const real = st?.isFile() ? await realpath(from).catch(() => null) : null;
    if (!st?.isFile() || st.size > max || !base || real !== path.join(base, ...p.split('/'))) {
      missing.push(p);
      continue;
    }
    const to = path.join(o.outDir, RECEIPTS_DIR, ...p.split('/'));
    await mkdir(path.dirname(to), { recursive: true });
    await copyFile(from, to);
    hrefs.set(p, [RECEIPTS_DIR, ...p.split('/').map(encodeURIComponent)].join('/'));
  }
  const linker: ReceiptLinker = (r) =>
    (
      [
        ['usage.jsonl', r.usage],
        ['ledger.json', r.ledger],
        ['give_up.json', r.giveUp],
      ] as const
    ).flatMap(([label, p]): ReceiptLink[] => (p ? [{ label, path: p, href: hrefs.get(p) ?? null }] : []));
  return { linker, copied: hrefs.size, missing };
}
