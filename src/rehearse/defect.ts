import type { CatalogEntry } from '../errors/entry.ts';

type ParamsOf<E> = E extends CatalogEntry<infer P> ? P : never;

/** A failed check's defect from a catalog entry: its code, its sentence and the hint that says what to do. */
export function defect<E extends CatalogEntry<any>>(e: E, params: ParamsOf<E>): { ok: false; code: string; defect: string; hint: string } {
  return { ok: false, code: e.code, defect: e.message(params), hint: e.hint(params) };
}
