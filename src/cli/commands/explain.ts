import { catalogEntries } from '../../errors/catalog.ts';
import { LintErrors } from '../../errors/lint-catalog.ts';
import { entryMarkdown } from '../../errors/reference.ts';
import { explainSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';

const LINT_ENTRIES: ReadonlySet<unknown> = new Set(Object.values(LintErrors));

/**
 * `packet explain [CODE | NAME | FIELD | PART]`: an error code, a frontmatter field, or a whole
 * reference. Each answer loads only what it reads: a code the catalog, a lint code its rule's
 * examples too, a field the schemas, so a lookup answers at once.
 */
export async function explainCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(explainSpec, args);
  if (values.help) {
    io.out(helpText(explainSpec));
    return 0;
  }
  const wanted = positionals.join(' ').trim();
  if (!wanted) {
    io.out((await import('../../docs/reference-texts.ts')).fullErrorReference());
    return 0;
  }
  const lower = wanted.toLowerCase();
  const entry = catalogEntries().find((e) => e.code.toLowerCase() === lower || e.name.toLowerCase() === lower);
  if (entry) {
    const example = LINT_ENTRIES.has(entry) ? (await import('../../docs/reference-texts.ts')).lintExamples().get(entry.code) : undefined;
    io.out(entryMarkdown(entry, example));
    return 0;
  }
  const { explainFormat, formatNames } = await import('../../packets/format-reference.ts');
  const format = explainFormat(wanted);
  if (format) {
    io.out(format);
    return 0;
  }
  const { closest } = await import('fastest-levenshtein');
  const names = [...catalogEntries().flatMap((e) => [e.code, e.name]), ...formatNames()];
  const guess = closest(wanted.split('.').at(-1)!, names);
  io.err(`packet explain: no error code, error name, packet file or frontmatter field "${wanted}"${guess ? `; did you mean "${guess}"?` : '.'} \`packet explain fields\` lists every field, \`packet explain\` every error.\n`);
  return 1;
}
