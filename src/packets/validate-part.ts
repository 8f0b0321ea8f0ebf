import { closest, distance } from 'fastest-levenshtein';
import type { z } from 'astro/zod';
import { diagnose, Errors } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import type { LocatedYaml } from './yaml-positions.ts';
import { knownKeysAt } from './schema-walk.ts';

/** Where a part's frontmatter sits, to turn YAML positions into file positions. */
export interface PartPlace {
  /** The file, as shown in diagnostics. */
  file: string;
  /** 1-based file line of the first YAML line. */
  yamlLine: number;
  /** The part's name, for messages ("prompt.mdx"). */
  label: string;
}

/** `rows[1].max`, `budget.tokens`. */
export function fieldName(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out ? `.${String(seg)}` : String(seg);
  return out || '(frontmatter)';
}

function describeValue(value: unknown): string {
  if (value === null) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map of fields';
  if (typeof value === 'string') return `the text "${value.length > 40 ? value.slice(0, 37) + '...' : value}"`;
  return `${typeof value === 'number' ? 'the number' : 'the value'} ${String(value)}`;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): { found: boolean; value: unknown } {
  let cur: unknown = data;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object' || !(seg in (cur as object))) return { found: false, value: undefined };
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return { found: true, value: cur };
}

/** A schema's own words on a bound (`; the kit never grants more than ...`), when it gave any. */
function why(issue: z.core.$ZodIssue): string {
  return issue.message && !/^Too (big|small)/.test(issue.message) ? `; ${issue.message}` : '';
}

function reasonFor(issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case 'invalid_type': {
      const expected = issue.expected === 'int' ? 'whole number' : issue.expected;
      return `must be ${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}, but it is ${describeValue(value)}`;
    }
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, but it is ${describeValue(value)}`;
    case 'too_small':
      return issue.origin === 'array'
        ? `needs at least ${String(issue.minimum)} item${Number(issue.minimum) === 1 ? '' : 's'}`
        : issue.origin === 'string'
          ? Number(issue.minimum) > 1
            ? `must be at least ${String(issue.minimum)} characters, but it is ${describeValue(value)}${why(issue)}`
            : `must not be empty`
          : `must be ${issue.inclusive ? 'at least' : 'more than'} ${String(issue.minimum)}, but it is ${describeValue(value)}${why(issue)}`;
    case 'too_big':
      return issue.origin === 'string'
        ? `is longer than ${String(issue.maximum)} characters`
        : `must be at most ${String(issue.maximum)}, but it is ${describeValue(value)}${why(issue)}`;
    case 'invalid_format':
    case 'custom':
      return issue.message.startsWith('Invalid') ? `is not valid (${issue.message})` : `is not valid: ${issue.message}`;
    case 'invalid_union':
      return `is not valid (${describeValue(value)})`;
    default:
      return `is not valid: ${issue.message}`;
  }
}

/** Validate parsed YAML against a part schema; every zod issue becomes a diagnostic at its own node. */
export function validatePart<S extends z.core.$ZodType>(
  schema: S,
  yaml: LocatedYaml,
  place: PartPlace,
): { data?: z.output<S>; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const toFile = (p: { line: number; column: number }) => ({
    file: place.file,
    line: p.line + place.yamlLine - 1,
    column: p.column,
  });
  const raw = yaml.value ?? {};
  const part = place.label.replace(/\.mdx$/, '');
  const result = (schema as unknown as z.ZodType).safeParse(raw);
  if (result.success) return { data: result.data as z.output<S>, diagnostics };
  for (const issue of result.error.issues) {
    const path = issue.path as PropertyKey[];
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeysAt(schema, path);
      for (const key of issue.keys) {
        const guess = known.length ? closest(key, known) : undefined;
        const suggestion = guess && distance(key, guess) <= Math.max(2, Math.floor(key.length / 3)) ? guess : undefined;
        diagnostics.push(
          diagnose(Errors.UnknownField, toFile(yaml.positionOf([...path, key], 'key')), {
            field: key,
            at: path.length ? `"${fieldName(path)}"` : place.label,
            ...(suggestion ? { suggestion } : {}),
            known: known.join(', '),
          }),
        );
      }
      continue;
    }
    const here = valueAt(raw, path);
    if (!here.found || (here.value === undefined && issue.code === 'invalid_type')) {
      const parent = path.slice(0, -1);
      const field = String(path[path.length - 1] ?? '');
      if (place.label === 'prompt.mdx' && field === 'test' && parent.length === 0) {
        diagnostics.push(diagnose(Errors.TestCommandMissing, toFile(yaml.positionOf(parent)), {}));
      } else {
        diagnostics.push(
          diagnose(Errors.MissingField, toFile(yaml.positionOf(parent)), {
            field,
            at: parent.length ? `"${fieldName(parent)}"` : place.label,
            path: fieldName(path),
            part,
          }),
        );
      }
      continue;
    }
    if (place.label === 'prompt.mdx' && path.length === 1 && path[0] === 'test') {
      diagnostics.push(diagnose(Errors.TestCommandMissing, toFile(yaml.positionOf(path)), {}));
      continue;
    }
    const reason = reasonFor(issue, here.value);
    const isPathRule = /relative path|\.\." segment|forward slashes/.test(issue.message);
    diagnostics.push(
      isPathRule
        ? diagnose(Errors.UnsafePath, toFile(yaml.positionOf(path)), { path: String(here.value), reason: issue.message })
        : diagnose(Errors.InvalidValue, toFile(yaml.positionOf(path)), { field: fieldName(path), reason, part }),
    );
  }
  return { diagnostics };
}
