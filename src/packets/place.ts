import type { Place } from '../errors/diagnostic.ts';
import type { Part } from './part.ts';

/** The file position of the field at `path` in a part's frontmatter. */
export function placeOf(part: Part<unknown>, path: readonly PropertyKey[], which: 'value' | 'key' = 'value'): Place {
  const p = part.yaml.positionOf(path, which);
  return { file: part.file, line: p.line + part.yamlLine - 1, column: p.column };
}
