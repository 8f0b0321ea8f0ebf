/**
 * The test tables of a lab with variants, for `packet build`: every variant (`packetVariants`,
 * `--variants N` overriding `variants.count`) rendered, its files written to a folder of its own
 * in the build's scratch folder (as the rehearsal does, src/rehearse/rehearse-variants.ts), and
 * its table computed from them by the one table source (src/labs/table-cache.ts), so each is
 * cached by the variant's digest and shared with `packet rehearse`. Variant k's candidate table
 * is published at `/packets/<id>/v<k>/combinations.json` (v1's at `/packets/<id>/combinations.json`),
 * its key beside its zip in the reviewer folder.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PacketFiles } from '../judge/workspace.ts';
import type { TableOutcome } from '../labs/table-cache.ts';
import type { LabTable } from '../labs/table.ts';
import type { Lab } from '../packets/packet.ts';
import { valuesText } from '../packets/variants-check.ts';
import { packetVariants, type PacketBytesReader, type PacketVariant } from '../packets/variants-render.ts';
import type { VariantValues } from '../packets/variants.ts';

/** One variant of a lab with its test table. */
export interface VariantTable {
  /** `v<number>`. */
  id: string;
  number: number;
  /** The digest of the variant's rendered files: its table's, its page's and its answer sheets'. */
  digest: string;
  values: VariantValues;
  /** The rendered variant, parsed as a lab (its suggestions and key with its values written in). */
  lab: Lab;
  table: LabTable;
  cached: boolean;
}

/** What computing a lab's variants' tables needs. */
export interface VariantTablesOptions {
  /** Reads the lab folder's files (placeholders as written). */
  read: PacketBytesReader;
  /** `--variants N`; the lab's `variants.count` when absent. */
  count?: number;
  /** The build's scratch folder: each variant's files go to `lab-variants/<id>-v<k>/` in it. */
  scratchDir: string;
  /** The variant's files as the table needs them, from its rendered folder. */
  files(variant: PacketVariant & { packet: Lab }, dir: string): Promise<PacketFiles>;
  /** The table source (cached by digest). */
  table(files: PacketFiles): Promise<TableOutcome>;
  /** Runs one table's work (the build's pool). */
  schedule<T>(fn: () => Promise<T>): Promise<T>;
  /** Told as each variant's table is known. */
  onVariant?(lab: Lab, variant: VariantTable): void;
}

/** The tables of every variant of a lab, in variant order; the first failure names the variant and its values. */
export async function labVariantTables(lab: Lab, o: VariantTablesOptions): Promise<{ ok: true; variants: VariantTable[] } | { ok: false; error: string }> {
  const rendered = await packetVariants(lab, o.read, o.count);
  const broken = rendered.find((r) => !r.variant || r.variant.packet.kind !== 'lab');
  if (broken) {
    const why = broken.diagnostics.find((d) => d.severity === 'error');
    return { ok: false, error: `variant ${broken.id} (${valuesText(broken.values)}) is not a valid lab once its values are written in${why ? `: ${why.code} ${why.message}` : ''}` };
  }
  const outcomes = await Promise.all(
    rendered.map((r) =>
      o.schedule(async () => {
        const v = r.variant! as PacketVariant & { packet: Lab };
        const dir = path.join(o.scratchDir, 'lab-variants', `${lab.id}-${v.id}`);
        for (const [rel, bytes] of v.files) {
          const target = path.join(dir, rel);
          await mkdir(path.dirname(target), { recursive: true });
          await writeFile(target, bytes);
        }
        const outcome = await o.table(await o.files(v, dir));
        if ('error' in outcome) return { error: `variant ${v.id} (${valuesText(v.values)}): ${outcome.error}` };
        const got: VariantTable = { id: v.id, number: v.number, digest: v.digest, values: v.values, lab: v.packet, table: outcome.table, cached: outcome.cached };
        o.onVariant?.(lab, got);
        return got;
      }),
    ),
  );
  const failed = outcomes.find((x): x is { error: string } => 'error' in x);
  if (failed) return { ok: false, error: failed.error };
  return { ok: true, variants: outcomes as VariantTable[] };
}
