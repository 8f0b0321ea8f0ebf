import type { z } from 'astro/zod';
import { diagnose, Errors } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { normalizeText, splitFrontmatter } from './frontmatter.ts';
import { PART_SCHEMAS, type PartName } from './schema/index.ts';
import { validatePart } from './validate-part.ts';
import { MAX_YAML_ALIASES, MAX_YAML_DEPTH, parseLocatedYaml, type LocatedYaml } from './yaml-positions.ts';

/** One parsed part file. */
export interface Part<F> {
  /** The file as shown in diagnostics. */
  file: string;
  /** The validated frontmatter. */
  data: F;
  /** The body (Markdown/MDX), LF line endings. */
  body: string;
  /** 1-based file line where the body starts. */
  bodyLine: number;
  /** 1-based file line where the YAML starts. */
  yamlLine: number;
  /** The whole normalized file. */
  text: string;
  /** The located YAML, to point at any field. */
  yaml: LocatedYaml;
}

/** The frontmatter type of each part. */
export type PartData<N extends PartName> = z.output<(typeof PART_SCHEMAS)[N]>;

/** Parse and validate one part file; the part is returned only when it is valid. */
export function parsePart<N extends PartName>(
  name: N,
  raw: string,
  file: string,
): { part?: Part<PartData<N>>; diagnostics: Diagnostic[] } {
  return parsePartWith(PART_SCHEMAS[name] as z.core.$ZodType, name, raw, file) as { part?: Part<PartData<N>>; diagnostics: Diagnostic[] };
}

/** Parse and validate one part file against a given schema (a drill's prompt has its own). */
export function parsePartWith<S extends z.core.$ZodType>(
  schema: S,
  name: PartName,
  raw: string,
  file: string,
): { part?: Part<z.output<S>>; diagnostics: Diagnostic[] } {
  const controls = controlCharacters(normalizeText(raw), file, `${name}.mdx`);
  const result = parseChecked(schema, name, raw, file);
  if (!controls.length) return result;
  return { diagnostics: [...controls, ...result.diagnostics] };
}

/** C0 controls but tab, LF and CR; DEL; C1. */
const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** Lines with control characters reported, at most, in one part. */
const MAX_CONTROL_LINES = 10;

/**
 * The control characters of a part's text (frontmatter and body alike), one diagnostic at the first
 * of each line that holds any, at its line and column (1-based, UTF-16 code units as the YAML
 * positions count them).
 */
export function controlCharacters(text: string, file: string, part: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length && out.length < MAX_CONTROL_LINES; i++) {
    const found = [...lines[i]!.matchAll(TEXT_CONTROL)];
    if (!found.length) continue;
    const first = found[0]!;
    const code = `U+${first[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    out.push(diagnose(Errors.ControlCharacterInText, { file, line: i + 1, column: first.index + 1 }, { part, code, count: found.length }));
  }
  return out;
}

function parseChecked<S extends z.core.$ZodType>(schema: S, name: PartName, raw: string, file: string): { part?: Part<z.output<S>>; diagnostics: Diagnostic[] } {
  const split = splitFrontmatter(raw);
  if (!split.ok) {
    const place = { file, line: 1, column: 1 };
    if (split.reason === 'not-yaml') return { diagnostics: [diagnose(Errors.FrontmatterNotYaml, place, { fence: split.fence })] };
    if (split.reason === 'unclosed')
      return { diagnostics: [diagnose(Errors.YamlSyntax, place, { reason: 'the frontmatter has no closing "---" line.' })] };
    return { diagnostics: [diagnose(Errors.FrontmatterMissing, place, {})] };
  }
  const yaml = parseLocatedYaml(split.yaml);
  if (yaml.errors.length) {
    return {
      diagnostics: yaml.errors.map((e) => {
        const place = { file, line: e.line + split.yamlLine - 1, column: e.column };
        if (e.kind === 'depth') return diagnose(Errors.YamlTooDeep, place, { max: MAX_YAML_DEPTH });
        if (e.kind === 'aliases') return diagnose(Errors.YamlTooManyAliases, place, { max: MAX_YAML_ALIASES });
        return diagnose(Errors.YamlSyntax, place, { reason: e.message });
      }),
    };
  }
  if (yaml.value !== undefined && yaml.value !== null && (typeof yaml.value !== 'object' || Array.isArray(yaml.value))) {
    return {
      diagnostics: [
        diagnose(Errors.YamlSyntax, { file, line: split.yamlLine, column: 1 }, { reason: 'the frontmatter must be a map of fields, not a single value or a list.' }),
      ],
    };
  }
  const { data, diagnostics } = validatePart(schema, yaml, { file, yamlLine: split.yamlLine, label: `${name}.mdx` });
  if (name === 'prompt' && split.body.trim() === '') {
    diagnostics.push(diagnose(Errors.EmptyBody, { file, line: split.bodyLine, column: 1 }, { part: name }));
  }
  if (!data || diagnostics.some((d) => d.severity === 'error')) return { diagnostics };
  return {
    part: {
      file,
      data: data as z.output<S>,
      body: split.body,
      bodyLine: split.bodyLine,
      yamlLine: split.yamlLine,
      text: split.text,
      yaml,
    },
    diagnostics,
  };
}
