/**
 * Lint configuration. Three layers, each overriding the one before:
 *
 * 1. each rule's default severity and options;
 * 2. the project file `packet-kit.config.json` at the project root:
 *    `{ "lint": { "rules": { "prompt-length": ["error", { "max": 250 }], "code-fence-lang": "off" } } }`;
 * 3. a packet's own `packets/<id>/lint.json`: `{ "rules": { "prompt-length": "warning" } }`.
 *
 * A setting is a severity (`"error"`, `"warning"`, `"off"`) or `[severity, options]`. A bare
 * severity keeps the options of the layer below; a pair replaces them. Inline comments in a
 * part body come last (see `directives.ts`).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'astro/zod';
import type { Diagnostic, Place, Severity } from '../errors/diagnostic.ts';
import { diagnose } from '../errors/catalog.ts';
import { LintErrors } from '../errors/lint-catalog.ts';
import { displayPath } from '../packets/fs-source.ts';
import { parseLocatedYaml } from '../packets/yaml-positions.ts';
import type { Rule } from './rule.ts';

/** The project config file, at the project root. */
export const PROJECT_CONFIG_FILE = 'packet-kit.config.json';
/** A packet's own lint settings, in the packet folder. */
export const PACKET_CONFIG_FILE = 'lint.json';

/** A severity a rule can be set to. `off` turns the rule off. */
export const severitySettingSchema = z.enum(['error', 'warning', 'off']);
/** A severity a rule can be set to. */
export type SeveritySetting = z.infer<typeof severitySettingSchema>;

/** One rule's setting: a severity, or a severity and the rule's options. */
export const ruleSettingSchema = z.union([
  severitySettingSchema,
  z.tuple([severitySettingSchema]),
  z.tuple([severitySettingSchema, z.record(z.string(), z.unknown())]),
]);
/** One rule's setting. */
export type RuleSetting = z.infer<typeof ruleSettingSchema>;

/** Settings by rule id. */
export const ruleSettingsSchema = z.record(z.string(), ruleSettingSchema);

/** The `lint` section of `packet-kit.config.json`. */
export const lintSectionSchema = z.strictObject({
  /** Settings by rule id, e.g. `"prompt-length": ["error", { "max": 250 }]`. */
  rules: ruleSettingsSchema.default({}),
});

/**
 * `packet-kit.config.json`. Only `lint` is read here; other top-level sections belong to other
 * parts of the kit and are left alone.
 */
export const projectConfigSchema = z.looseObject({
  /** An editor's JSON Schema pointer; ignored. */
  $schema: z.string().optional(),
  /** Lint settings for every packet of the project. */
  lint: lintSectionSchema.optional(),
});

/** `packets/<id>/lint.json`: lint settings for one packet. */
export const packetConfigSchema = z.strictObject({
  /** An editor's JSON Schema pointer; ignored. */
  $schema: z.string().optional(),
  /** Settings by rule id; they override the project's. */
  rules: ruleSettingsSchema.default({}),
});

/** One layer of lint settings, with where it came from. */
export interface LintConfig {
  /** The file it was read from, as shown in diagnostics; none for a config built in code. */
  file?: string;
  /** Settings by rule id. */
  rules: Record<string, RuleSetting>;
  /** The file place of a key of the file (`['lint', 'rules', 'prompt-length']`). */
  placeOf?(path: readonly PropertyKey[]): Place;
}

/** No settings: every rule at its default. */
export const DEFAULT_LINT_CONFIG: LintConfig = { rules: {} };

/** What a rule ends up as, for one packet. */
export interface ResolvedRule {
  severity: Severity | 'off';
  options: unknown;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? `"${issue.path.map(String).join('.')}" ` : '';
  if (issue.code === 'unrecognized_keys') return `${where}has unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  if (issue.code === 'invalid_union' && issue.path.length >= 2) return `${where}must be "error", "warning", "off" or ["error", { ...options }]`;
  const message = issue.message.replace(/^Invalid input: /, '');
  return where ? `${where}is wrong: ${message}` : message;
}

/** Parse a config file's text. `kind` says which shape it has. Never throws. */
export function parseLintConfig(text: string, file: string, kind: 'project' | 'packet'): { config: LintConfig; diagnostics: Diagnostic[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    const m = /line (\d+) column (\d+)/.exec(message);
    const place = m ? { file, line: Number(m[1]), column: Number(m[2]) } : { file, line: 1, column: 1 };
    return { config: { file, rules: {} }, diagnostics: [diagnose(LintErrors.LintConfigInvalid, place, { reason: `it is not JSON (${message})` })] };
  }
  const located = parseLocatedYaml(text);
  const placeOf = (p: readonly PropertyKey[]): Place => {
    if (located.errors.length) return { file, line: 1, column: 1 };
    const pos = located.positionOf(p, 'key');
    return { file, line: pos.line, column: pos.column };
  };
  const schema = kind === 'project' ? projectConfigSchema : packetConfigSchema;
  const result = schema.safeParse(value);
  if (!result.success) {
    return {
      config: { file, rules: {}, placeOf },
      diagnostics: result.error.issues.map((issue) =>
        diagnose(LintErrors.LintConfigInvalid, placeOf(issue.path as PropertyKey[]), { reason: describeIssue(issue) }),
      ),
    };
  }
  const rules = kind === 'project' ? ((result.data as z.infer<typeof projectConfigSchema>).lint?.rules ?? {}) : (result.data as z.infer<typeof packetConfigSchema>).rules;
  const prefix = kind === 'project' ? ['lint', 'rules'] : ['rules'];
  return { config: { file, rules, placeOf: (p) => placeOf(p.length ? [...prefix, ...p] : prefix) }, diagnostics: [] };
}

/**
 * Read the project's lint config: `file` when given (it must exist), else
 * `packet-kit.config.json` in `cwd` when there is one, else the defaults.
 */
export async function loadProjectLintConfig(cwd: string, file?: string): Promise<{ config: LintConfig; diagnostics: Diagnostic[] }> {
  const abs = path.resolve(cwd, file ?? PROJECT_CONFIG_FILE);
  const shown = displayPath(abs, cwd);
  let text: string;
  try {
    text = await readFile(abs, 'utf8');
  } catch (err) {
    if (file === undefined && (err as NodeJS.ErrnoException).code === 'ENOENT') return { config: DEFAULT_LINT_CONFIG, diagnostics: [] };
    return {
      config: DEFAULT_LINT_CONFIG,
      diagnostics: [diagnose(LintErrors.LintConfigInvalid, { file: shown }, { reason: `the file cannot be read (${(err as Error).message})` })],
    };
  }
  return parseLintConfig(text, shown, 'project');
}

function severityOf(setting: RuleSetting): SeveritySetting {
  return typeof setting === 'string' ? setting : setting[0];
}

function optionsOf(setting: RuleSetting): Record<string, unknown> | undefined {
  return typeof setting === 'string' ? undefined : setting[1];
}

/** Problems with a config's settings that only the rule list can tell: unknown rule ids, bad options. */
export function checkRuleSettings(config: LintConfig, rules: readonly Rule[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const file = config.file ?? '(lint config)';
  const place = (p: readonly PropertyKey[]) => config.placeOf?.(p) ?? { file };
  for (const [id, setting] of Object.entries(config.rules)) {
    const rule = rules.find((r) => r.id === id);
    if (!rule) {
      out.push(
        diagnose(LintErrors.LintConfigInvalid, place([id]), {
          reason: `there is no rule "${id}" (rules: ${rules.map((r) => r.id).join(', ')})`,
        }),
      );
      continue;
    }
    const options = optionsOf(setting);
    if (options === undefined) continue;
    if (!rule.options) {
      if (Object.keys(options).length) out.push(diagnose(LintErrors.LintConfigInvalid, place([id]), { reason: `the rule "${id}" takes no options` }));
      continue;
    }
    const parsed = rule.options.safeParse(options);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        out.push(diagnose(LintErrors.LintConfigInvalid, place([id]), { reason: `the options of "${id}": ${describeIssue(issue)}` }));
      }
    }
  }
  return out;
}

/** The severity and options of a rule after every layer, lowest first. Invalid options fall back to the layer below. */
export function resolveRule(rule: Rule, layers: readonly LintConfig[]): ResolvedRule {
  let severity: Severity | 'off' = rule.defaultSeverity;
  let options: unknown = rule.options ? rule.options.parse({}) : {};
  for (const layer of layers) {
    const setting = layer.rules[rule.id];
    if (setting === undefined) continue;
    severity = severityOf(setting);
    const given = optionsOf(setting);
    if (given !== undefined && rule.options) {
      const parsed = rule.options.safeParse(given);
      if (parsed.success) options = parsed.data;
    }
  }
  return { severity, options };
}
