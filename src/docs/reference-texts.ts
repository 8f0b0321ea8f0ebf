import { errorReferenceMarkdown, type EntryExample } from '../errors/reference.ts';
import { lintRules } from '../lint/rules/index.ts';
import { formatReferenceMarkdown } from '../packets/format-reference.ts';
import { allJsonSchemas } from '../packets/json-schema.ts';

/**
 * The kit's published reference texts, each made from its one source: the error reference from
 * the catalog and the lint rules' docs, the format reference from the schemas. `packet explain`
 * prints them, the build's canary scan knows them as the kit's own, and `npm run docs` writes
 * them into docs/ (scripts/docs-sections.ts). This folder sits below the CLI: it imports the
 * catalog, the lint rules and the packet model, never the CLI.
 */

/** Each lint rule's docs, by the code of the catalog entry it reports. */
export function lintExamples(): Map<string, EntryExample> {
  return new Map(lintRules.map((r) => [r.entry.code, { rule: r.id, summary: r.docs.summary, bad: r.docs.bad, good: r.docs.good }]));
}

/** The error reference with every lint rule's bad and good example. */
export function fullErrorReference(): string {
  return errorReferenceMarkdown(lintExamples());
}

/**
 * Everything the site publishes of the kit's own, as text: the error reference with the lint
 * rules' examples, the field reference, the JSON Schemas. The canary scan does not count a
 * packet line found here as a leak: the kit wrote it, not the packet.
 */
export function kitPublicTexts(): string[] {
  return [fullErrorReference(), formatReferenceMarkdown(), ...Object.values(allJsonSchemas())];
}
