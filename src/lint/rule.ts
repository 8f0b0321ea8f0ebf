import type { z } from 'astro/zod';
import type { CatalogEntry } from '../errors/entry.ts';
import type { Place, Severity } from '../errors/diagnostic.ts';
import type { PacketOf } from '../packets/packet.ts';
import type { Part } from '../packets/part.ts';
import type { RubricFrontmatter } from '../packets/schema/rubric.ts';
import type { PacketKind, PartName } from '../packets/schema/index.ts';
import type { ParsedBody } from '../packets/markdown-tree.ts';

/** The MDX parts of a packet: a take-home's four, a lab's or drill's `assistant`. */
export type PartKey = PartName;

/** A rule's documentation: what it asks for, and one bad and one good example. */
export interface RuleDocs {
  /** One paragraph: what the rule checks and why the method asks for it. */
  summary: string;
  /** A short example that fails the rule (Markdown or YAML, as an author would write it). */
  bad: string;
  /** The same example, fixed. */
  good: string;
  /** Options the rule takes, by name, with their default, in words. */
  options?: Record<string, string>;
}

/** A text file of the starter tree, as the rules see it. */
export interface StarterFile {
  /** Path relative to `starter/`. */
  path: string;
  /** The file as shown in diagnostics, e.g. `packets/x/starter/src/a.py`. */
  file: string;
  /** The contents, or undefined for a binary or unreadable file. */
  text: string | undefined;
}

/**
 * What a rule can see of one packet of one of the kinds `K` it reads. Everything is read for it;
 * a rule does no I/O of its own.
 */
export interface RuleContext<O, K extends PacketKind = PacketKind> {
  /** The packet, validated; narrow it with `kind` when the rule reads several kinds. */
  packet: PacketOf<K>;
  /** The rule's options, validated, defaults applied. */
  options: O;
  /** The parts this packet's kind has, in reading order (a take-home's four; a lab's or drill's prompt, rubric and assistant). */
  parts: readonly PartKey[];
  /** A part the packet has, as parsed (its file, text and frontmatter). */
  part(part: PartKey): Part<unknown>;
  /** The parsed body of a part the packet has (Markdown tree, positions relative to the body). */
  body(part: PartKey): ParsedBody;
  /** The file position of a frontmatter field of a part. */
  field(part: PartKey, path: readonly PropertyKey[], which?: 'value' | 'key'): Place;
  /** The text files of the starter tree, read once per packet; none for a kind without code (a drill). */
  starterFiles(): Promise<StarterFile[]>;
}

/** One problem a rule found: where, and the parameters of the rule's catalog entry. */
export interface Finding<P> {
  place: Place;
  params: P;
  /** The place holds a secret: never print its source line. */
  sensitive?: boolean;
}

/**
 * A lint rule. It declares the kinds of packet it reads, reads one such packet through its
 * context and returns findings with positions; the engine runs it on those kinds only and turns
 * the findings into diagnostics, applying the configured severity and inline disables.
 */
export interface Rule<P extends Record<string, unknown> = any, O = any, K extends PacketKind = any> {
  /** The permanent kebab-case id, used in config files and directives: `prompt-length`. */
  id: string;
  /** The severity when nothing configures it. */
  defaultSeverity: Severity;
  /** The catalog entry of the rule's diagnostics (code, name, message, hint). */
  entry: CatalogEntry<P>;
  /** The documentation of the rule. */
  docs: RuleDocs;
  /** Schema of the rule's options, with defaults; rules without options leave it out. */
  options?: z.ZodType<O>;
  /** The kinds of packet the rule reads; `check` sees only packets of these kinds. */
  kinds: readonly K[];
  /** Find the problems of one packet. */
  check(ctx: RuleContext<O, K>): Finding<P>[] | Promise<Finding<P>[]>;
}

/** What a rule that reads only the rubric sees, of a packet of any kind. */
export interface RubricView<O> {
  rubric: RubricFrontmatter;
  options: O;
  /** The file position of a field of the rubric's frontmatter. */
  field(path: readonly PropertyKey[], which?: 'value' | 'key'): Place;
}

/** True when the rule reads packets of the given kind. */
export function ruleReads(rule: Pick<Rule, 'kinds'>, kind: PacketKind): boolean {
  return rule.kinds.includes(kind);
}

/** Declare a rule, keeping its parameter and option types. */
export function defineRule<P extends Record<string, unknown>, O = Record<string, never>, const K extends PacketKind = PacketKind>(rule: Rule<P, O, K>): Rule<P, O, K> {
  return rule;
}
