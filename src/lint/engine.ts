import { diagnose, Errors } from '../errors/catalog.ts';
import { sortDiagnostics, type Diagnostic } from '../errors/diagnostic.ts';
import { LintErrors } from '../errors/lint-catalog.ts';
import { kindOf } from '../packets/kinds/index.ts';
import { hasCode, type CodePacket, type Packet } from '../packets/packet.ts';
import type { Part } from '../packets/part.ts';
import { placeOf } from '../packets/place.ts';
import { checkRuleSettings, DEFAULT_LINT_CONFIG, PACKET_CONFIG_FILE, parseLintConfig, resolveRule, type LintConfig } from './config.ts';
import { findDirectives, type Directive } from './directives.ts';
import type { PacketFiles } from './files.ts';
import type { LintCache } from './lint-cache.ts';
import type { ParsedBody } from '../packets/markdown-tree.ts';
import { ruleReads, type PartKey, type Rule, type RuleContext, type StarterFile } from './rule.ts';

/** What the lint needs besides the packet. */
/** The rules and the Markdown parser, loaded when something is linted: a run whose packets all hit the cache needs neither. */
const linting = async () => ({ ...(await import('./rules/index.ts')), ...(await import('../packets/markdown-tree.ts')) });

export interface LintOptions {
  /** The project's settings (`packet-kit.config.json`); defaults when absent. */
  config?: LintConfig;
  /** Reads packet files (starter files, `lint.json`); without it, rules see no starter files and no packet settings. */
  files?: PacketFiles;
  /** The rules to run; every rule when absent. */
  rules?: readonly Rule[];
  /** Results of earlier runs, reused for unchanged packets (every rule runs, so only with all of them). */
  cache?: LintCache;
}

function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return undefined;
  }
}

async function readStarter(packet: CodePacket, files: PacketFiles | undefined): Promise<StarterFile[]> {
  const out: StarterFile[] = [];
  for (const rel of packet.trees.starter) {
    const bytes = files ? await files.read(packet, `starter/${rel}`) : undefined;
    out.push({ path: rel, file: `${packet.dir}/starter/${rel}`, text: bytes ? decodeText(bytes) : undefined });
  }
  return out;
}

/** The packet's own settings from `lint.json`, when it has one. */
async function packetConfig(packet: Pick<Packet, 'id' | 'dir' | 'entries'>, files: PacketFiles | undefined): Promise<{ config?: LintConfig; diagnostics: Diagnostic[] }> {
  if (!files || !packet.entries.some((e) => e.path === PACKET_CONFIG_FILE && e.kind === 'file')) return { diagnostics: [] };
  const file = `${packet.dir}/${PACKET_CONFIG_FILE}`;
  const bytes = await files.read(packet, PACKET_CONFIG_FILE);
  const text = bytes ? decodeText(bytes) : undefined;
  if (text === undefined) {
    return { diagnostics: [diagnose(LintErrors.LintConfigInvalid, { file }, { reason: 'the file cannot be read as UTF-8 text' })] };
  }
  return parseLintConfig(text, file, 'packet');
}

function suppresses(directive: Directive, d: Diagnostic): boolean {
  if (directive.rules.length && !directive.rules.includes(d.rule!)) return false;
  return directive.kind === 'disable' || directive.targetLine === d.line;
}

/**
 * Lint one packet of any kind: run every rule that reads its kind and is not off, at its
 * configured severity, then drop what inline directives disable. Returns diagnostics sorted by
 * place; throws only on a bug.
 */
export async function lintPacket(packet: Packet, options: LintOptions = {}): Promise<Diagnostic[]> {
  const { lintRules, parseBody } = await linting();
  const rules = options.rules ?? lintRules;
  const diagnostics: Diagnostic[] = [];
  const own = await packetConfig(packet, options.files);
  diagnostics.push(...own.diagnostics);
  if (own.config) diagnostics.push(...checkRuleSettings(own.config, lintRules));
  const layers = [options.config ?? DEFAULT_LINT_CONFIG, ...(own.config ? [own.config] : [])];

  const parts = kindOf(packet).parts;
  const partOf = (part: PartKey): Part<unknown> => {
    const found = parts.includes(part) ? (packet as unknown as Record<PartKey, Part<unknown> | undefined>)[part] : undefined;
    if (!found) throw new Error(`lint: the packet ${packet.id} has no ${part}.mdx (rules read only ctx.parts)`);
    return found;
  };
  const bodies = new Map<PartKey, ParsedBody>();
  const body = (part: PartKey): ParsedBody => {
    let parsed = bodies.get(part);
    if (!parsed) bodies.set(part, (parsed = parseBody(partOf(part))));
    return parsed;
  };
  let starter: Promise<StarterFile[]> | undefined;
  const starterFiles = () => (starter ??= hasCode(packet) ? readStarter(packet, options.files) : Promise.resolve([]));

  const found: Diagnostic[] = [];
  for (const rule of rules) {
    if (!ruleReads(rule, packet.kind)) continue;
    const { severity, options: ruleOptions } = resolveRule(rule, layers);
    if (severity === 'off') continue;
    const ctx: RuleContext<unknown> = {
      packet,
      options: ruleOptions,
      parts,
      part: partOf,
      body,
      field: (part, path, which) => placeOf(partOf(part), path, which),
      starterFiles,
    };
    for (const finding of await rule.check(ctx)) {
      const d = diagnose(rule.entry, finding.place, finding.params, severity);
      d.rule = rule.id;
      if (finding.sensitive) d.sensitive = true;
      found.push(d);
    }
  }

  const known = new Set(lintRules.map((r) => r.id));
  const byFile = new Map<string, Directive[]>();
  for (const part of parts) {
    const directives = findDirectives(body(part));
    byFile.set(partOf(part).file, directives);
    for (const directive of directives) {
      for (const id of directive.rules) {
        if (!known.has(id)) diagnostics.push(diagnose(LintErrors.LintDirectiveUnknownRule, directive.place, { rule: id, known: [...known].join(', ') }));
      }
    }
  }
  for (const d of found) {
    if (!(byFile.get(d.file) ?? []).some((directive) => suppresses(directive, d))) diagnostics.push(d);
  }
  return sortDiagnostics(diagnostics);
}

/** Lint every packet; the project config's own problems (unknown rules, bad options) are reported once. */
export async function lintPackets(packets: readonly Packet[], options: LintOptions = {}): Promise<Diagnostic[]> {
  const diagnostics = options.config && Object.keys(options.config.rules).length ? checkRuleSettings(options.config, (await linting()).lintRules) : [];
  const cache = options.rules ? undefined : options.cache;
  for (const packet of packets) {
    try {
      const cached = await cache?.get(packet, options.config);
      if (cached) {
        diagnostics.push(...cached);
        continue;
      }
      const found = await lintPacket(packet, options);
      await cache?.set(packet, options.config, found);
      diagnostics.push(...found);
    } catch (err) {
      // A rule that throws on input nobody foresaw costs that packet its lint, never the others theirs.
      const reason = err instanceof Error ? `${err.name}: ${err.message.split('\n')[0]}` : String(err);
      diagnostics.push(diagnose(Errors.PacketCheckCrashed, { file: packet.dir }, { step: 'Linting', reason: reason.slice(0, 200) }));
    }
  }
  return sortDiagnostics(diagnostics);
}
