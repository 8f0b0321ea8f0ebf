import { parseArgs } from 'node:util';
import { diagnose } from '../errors/catalog.ts';
import { CliErrors } from '../errors/cli-catalog.ts';
import { shownPath } from '../errors/diagnostic.ts';
import { PacketKitError } from '../errors/packet-kit-error.ts';

/**
 * Flags defined once: each command's flags are data (name, type, default, description), and
 * node:util's parseArgs, the command's `--help` and the CLI reference (docs/cli.md) are made from them.
 */

/** One flag of a command. */
export interface FlagSpec {
  /**
   * A string takes a value (`--packets DIR`); a boolean does not (`--strict`); an integer takes
   * a whole number (`--port N`) and a number any decimal (`--timeout S`), both parsed and
   * bounded here, so the command gets a number it need not check.
   */
  type: 'string' | 'boolean' | 'integer' | 'number';
  /** What the help shows for the value: `DIR`, `FILE`, `N`. Not for booleans. */
  value?: string;
  /** The value when the flag is not given: a number for an integer or number flag. */
  default?: string | boolean | number;
  /** What the help shows as the default when it is worked out at run time ("number of cores"). */
  defaultText?: string;
  /** A one-letter alias. */
  short?: string;
  /** A boolean that is on by default and turned off as `--no-<name>`. */
  negatable?: boolean;
  /** The values a string flag accepts. */
  choices?: readonly string[];
  /** The least value of an integer or number flag. */
  min?: number;
  /** The greatest value of an integer or number flag. */
  max?: number;
  /** A number flag's value must be more than this (a timeout: more than 0 seconds). */
  above?: number;
  /** What the flag does, as a phrase: "the packets folder". */
  description: string;
  /** A heading the flag is listed under in the help, for a command whose flags fall into groups. */
  group?: string;
}

/** A command: its synopsis, what it does, its flags and its exit codes. */
export interface CommandSpec<F extends Record<string, FlagSpec> = Record<string, FlagSpec>> {
  /** The command's name: `check`. */
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The arguments after the name in the usage line: `[ids...] [options]`. */
  usage: string;
  /** What the command does, in paragraphs separated by blank lines; lines starting with spaces are kept as they are. */
  description: string;
  /** The flags, by name. */
  flags: F;
  /** True when the command takes arguments besides flags. */
  positionals: boolean;
  /** Text after the flags (settings, environment), kept as written. */
  notes?: string;
  /** The exit codes, in words. */
  exit?: string;
}

/** Declare a command, keeping its flags' literal types for {@link parseCommand}. */
export function defineCommand<const F extends Record<string, FlagSpec>>(spec: CommandSpec<F>): CommandSpec<F> {
  return spec;
}

type Parsed<S extends FlagSpec> = S['type'] extends 'boolean' ? boolean : S['type'] extends 'integer' | 'number' ? number : string;
type ValueOf<S extends FlagSpec> = S extends { default: string | boolean | number } ? Parsed<S> : Parsed<S> | undefined;

/** The parsed values of a command's flags, plus `help`. */
export type FlagValues<F extends Record<string, FlagSpec>> = { -readonly [K in keyof F]: ValueOf<F[K]> } & { help: boolean | undefined };

/** A parse error of the same kind node:util's parseArgs throws, so the CLI reports both alike. */
function parseError(message: string): TypeError {
  return Object.assign(new TypeError(message), { code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' });
}

/** A flag given a value it does not take: a coded diagnostic (PK801), and exit 2 like any wrong flag. */
export class FlagValueError extends PacketKitError {
  constructor(flag: string, value: string, allowed: string) {
    super(diagnose(CliErrors.FlagValueInvalid, { file: `--${flag}` }, { flag, value: shownPath(value), allowed }));
    this.name = 'FlagValueError';
  }
}

/** What a flag takes, in words: `"text" or "json"`, `a whole number from 0 to 65535`, `a whole number of at least 1`, `a number more than 0`. */
export function allowedValues(f: FlagSpec): string {
  if (f.choices) return f.choices.map((c) => `"${c}"`).join(' or ');
  const noun = f.type === 'integer' ? 'a whole number' : f.type === 'number' ? 'a number' : 'text';
  if (f.above === undefined && f.min !== undefined && f.max !== undefined) return `${noun} from ${f.min} to ${f.max}`;
  const low = f.above !== undefined ? `more than ${f.above}` : f.min !== undefined ? `at least ${f.min}` : undefined;
  const bounds = [low, f.max !== undefined ? `at most ${f.max}` : undefined].filter(Boolean).join(' and ');
  return bounds ? `${noun} ${bounds.startsWith('at ') ? 'of ' : ''}${bounds}` : noun;
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;

/** A flag's text as its spec takes it: the number of an integer or number flag, the text of a string flag; undefined when it is not one it takes. */
export function flagValue(f: FlagSpec, text: string): string | number | undefined {
  if (f.type === 'integer' || f.type === 'number') {
    if (!(f.type === 'integer' ? INTEGER : DECIMAL).test(text)) return undefined;
    const n = Number(text);
    if (!Number.isFinite(n) || (f.type === 'integer' && !Number.isSafeInteger(n))) return undefined;
    if ((f.min !== undefined && n < f.min) || (f.max !== undefined && n > f.max) || (f.above !== undefined && !(n > f.above))) return undefined;
    return n;
  }
  return f.choices && !f.choices.includes(text) ? undefined : text;
}

/**
 * Parse a command's arguments by its flags: `--help` included; choices, whole numbers and
 * bounds checked, numbers converted. A value a flag does not take throws {@link FlagValueError}.
 */
export function parseCommand<F extends Record<string, FlagSpec>>(spec: CommandSpec<F>, args: string[]): { values: FlagValues<F>; positionals: string[] } {
  const options: Record<string, { type: 'string' | 'boolean'; default?: string | boolean; short?: string }> = { help: { type: 'boolean', short: 'h' } };
  for (const [name, f] of Object.entries(spec.flags)) {
    const type = f.type === 'boolean' ? 'boolean' : 'string';
    const byParseArgs = typeof f.default === 'string' || typeof f.default === 'boolean';
    options[name] = { type, ...(byParseArgs ? { default: f.default as string | boolean } : {}), ...(f.short ? { short: f.short } : {}) };
  }
  const negatable = Object.values(spec.flags).some((f) => f.negatable);
  const { values, positionals } = parseArgs({ args, options, allowPositionals: true, ...(negatable ? { allowNegative: true } : {}) });
  const parsed: Record<string, unknown> = { ...values };
  // With negation on, parseArgs reads a flag named `no-x` (check's --no-cache) as `x: false`.
  for (const key of Object.keys(values)) {
    if (key in spec.flags || !(`no-${key}` in spec.flags)) continue;
    parsed[`no-${key}`] = true;
    delete parsed[key];
  }
  if (!values.help) {
    if (positionals.length && !spec.positionals) throw parseError(`"${positionals[0]}" is not a flag of packet ${spec.name}, and the command takes no arguments`);
    for (const [name, f] of Object.entries(spec.flags)) {
      const v = values[name];
      if (typeof v !== 'string') {
        if (v === undefined && typeof f.default === 'number') parsed[name] = f.default;
        continue;
      }
      const value = flagValue(f, v);
      if (value === undefined) throw new FlagValueError(name, v, allowedValues(f));
      parsed[name] = value;
    }
  }
  return { values: parsed as FlagValues<F>, positionals };
}

/** How a flag is written: `--packets DIR`, `--no-lint`, `--format text|json`. */
export function flagSynopsis(name: string, f: FlagSpec): string {
  if (f.type === 'boolean') return f.negatable ? `--no-${name}` : `--${name}`;
  return `--${name} ${f.choices ? f.choices.join('|') : (f.value ?? 'VALUE')}`;
}

/** The default as the help shows it, or undefined when there is none worth saying. */
export function flagDefault(f: FlagSpec): string | undefined {
  if (f.defaultText) return f.defaultText;
  if (f.type === 'boolean') return undefined;
  return typeof f.default === 'string' || typeof f.default === 'number' ? String(f.default) : undefined;
}

/** Wrap words to `width` columns; the first line has `first` columns fewer. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Paragraphs wrapped at `width`; lines that start with a space are kept as written. */
function paragraphs(text: string, width: number): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => (/^ /m.test(p) ? p.replace(/\s+$/, '') : wrap(p, width).join('\n')))
    .join('\n\n');
}

const WIDTH = 80;
const FLAG_COLUMN = 24;

/** The `--help` of a command: usage, what it does, its flags (in their groups), notes, exit codes. */
export function helpText(spec: CommandSpec, extra = ''): string {
  const out = [`Usage: packet ${spec.name} ${spec.usage}`.trimEnd(), '', paragraphs(spec.description, WIDTH), ''];
  const groups = new Map<string, [string, FlagSpec][]>();
  for (const entry of Object.entries(spec.flags)) {
    const g = entry[1].group ?? '';
    groups.set(g, [...(groups.get(g) ?? []), entry]);
  }
  groups.set('', [...(groups.get('') ?? []), ['help', { type: 'boolean', short: 'h', description: 'print this help' }]]);
  for (const [group, flags] of [...groups].sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : 0))) {
    out.push(group ? `${group}:` : 'Options:');
    for (const [name, f] of flags) {
      const def = flagDefault(f);
      const text = `${f.description}${def !== undefined ? ` (default: ${def})` : ''}`;
      const synopsis = `  ${f.short ? `-${f.short}, ` : ''}${flagSynopsis(name, f)}`;
      const body = wrap(text, WIDTH - FLAG_COLUMN);
      if (synopsis.length + 2 > FLAG_COLUMN) out.push(synopsis, ...body.map((l) => `${' '.repeat(FLAG_COLUMN)}${l}`));
      else out.push(`${synopsis.padEnd(FLAG_COLUMN)}${body[0] ?? ''}`, ...body.slice(1).map((l) => `${' '.repeat(FLAG_COLUMN)}${l}`));
    }
    out.push('');
  }
  if (spec.notes) out.push(paragraphs(spec.notes, WIDTH), '');
  if (extra) out.push(extra.trimEnd(), '');
  if (spec.exit) out.push(paragraphs(`Exit: ${spec.exit}`, WIDTH), '');
  return out.join('\n');
}

/** Escape a table cell. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

/** The CLI reference of docs/cli.md: the command table, then each command's flags, made from the same specs as `--help`. */
export function cliReferenceMarkdown(specs: readonly CommandSpec[]): string {
  const out = ['| command | does | exit |', '|---|---|---|'];
  for (const s of specs) out.push(`| [\`packet ${s.name}\`](#packet-${s.name}) | ${cell(s.summary)} | ${cell(s.exit ?? '')} |`);
  out.push('');
  for (const s of specs) {
    out.push(`#### packet ${s.name}`, '', `\`packet ${s.name} ${s.usage}\``.replace(/ `$/, '`'), '', s.description.trim().replace(/\n(?!\n)(?! )/g, ' '), '');
    const flags = Object.entries(s.flags);
    if (flags.length) {
      out.push('| flag | default | what it does |', '|---|---|---|');
      for (const [name, f] of flags) {
        const def = flagDefault(f);
        out.push(`| \`${cell(flagSynopsis(name, f))}\` | ${def !== undefined ? `\`${cell(def)}\`` : ''} | ${cell(f.description)} |`);
      }
      out.push('');
    }
    if (s.notes) out.push('```text', s.notes.trim(), '```', '');
  }
  return out.join('\n');
}

/** Markers around the generated section of README.md. */
export const CLI_REFERENCE_START = '<!-- cli-reference:start (generated by `npm run docs`) -->';
export const CLI_REFERENCE_END = '<!-- cli-reference:end -->';
