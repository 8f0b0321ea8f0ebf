import type { z } from 'astro/zod';
import type { CatalogEntry } from '../errors/entry.ts';
import type { Place, Severity } from '../errors/diagnostic.ts';
import type { Packet } from '../packets/packet.ts';
import type { Drill } from '../packets/drill.ts';
import type { RubricFrontmatter } from '../packets/schema/rubric.ts';
import type { PacketKind, PartName } from '../packets/schema/index.ts';
import type { ParsedBody } from '../packets/markdown-tree.ts';

/** The MDX parts of a packet: a take-home's four, a lab's `assistant`. */
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

/** What a rule can see of one packet. Everything is read for it; a rule does no I/O of its own. */
export interface RuleContext<O> {
  /** The packet, validated. */
  packet: Packet;
  /** The rule's options, validated, defaults applied. */
  options: O;
  /** The parts this packet has, in reading order (a take-home's four; a lab's prompt, rubric and assistant). */
  parts: readonly PartKey[];
  /** The parsed body of a part the packet has (Markdown tree, positions relative to the body). */
  body(part: PartKey): ParsedBody;
  /** The file position of a frontmatter field of a part. */
  field(part: PartKey, path: readonly PropertyKey[], which?: 'value' | 'key'): Place;
  /** The text files of the starter tree, read once per packet. */
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
 * A lint rule. It reads the packet through its context and returns findings with positions;
 * the engine turns them into diagnostics, applying the configured severity and inline disables.
 */
export interface Rule<P extends Record<string, unknown> = any, O = any> {
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
  /** The kinds the rule reads; default take-homes and labs. A rule for drills gives `checkDrill`. */
  kinds?: readonly PacketKind[];
  /** Find the problems. */
  check(ctx: RuleContext<O>): Finding<P>[] | Promise<Finding<P>[]>;
  /** Find the problems of a drill (a drill has no code trees; it is not a `Packet`). */
  checkDrill?(ctx: DrillRuleContext<O>): Finding<P>[] | Promise<Finding<P>[]>;
}

/** What a rule can see of one drill. */
export interface DrillRuleContext<O> {
  drill: Drill;
  options: O;
  /** The parsed body of a part of the drill. */
  body(part: 'prompt' | 'rubric' | 'assistant'): ParsedBody;
  /** The file position of a frontmatter field of a part. */
  field(part: 'prompt' | 'rubric' | 'assistant', path: readonly PropertyKey[], which?: 'value' | 'key'): Place;
}

/** What a rule that reads only the rubric sees, of a packet or of a drill. */
export interface RubricView<O> {
  rubric: RubricFrontmatter;
  options: O;
  /** The file position of a field of the rubric's frontmatter. */
  field(path: readonly PropertyKey[], which?: 'value' | 'key'): Place;
}

/** The kinds a rule reads. */
export function kindsOf(rule: Pick<Rule, 'kinds'>): readonly PacketKind[] {
  return rule.kinds ?? ['takehome', 'lab'];
}

/** Declare a rule, keeping its parameter and option types. */
export function defineRule<P extends Record<string, unknown>, O = Record<string, never>>(rule: Rule<P, O>): Rule<P, O> {
  return rule;
}
