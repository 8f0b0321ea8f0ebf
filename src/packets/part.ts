import type { z } from 'astro/zod';
import { diagnose, Errors } from '../errors/catalog.ts';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { splitFrontmatter } from './frontmatter.ts';
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
