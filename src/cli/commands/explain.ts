import { closest } from 'fastest-levenshtein';
import { catalogEntries } from '../../errors/catalog.ts';
import { entryMarkdown } from '../../errors/reference.ts';
import { fullErrorReference, lintExamples } from '../../docs/reference-texts.ts';
import { explainFormat, formatNames } from '../../packets/format-reference.ts';
import { explainSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';

/** `packet explain [CODE | NAME | FIELD | PART]`: an error code, a frontmatter field, or a whole reference. */
export async function explainCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(explainSpec, args);
  if (values.help) {
    io.out(helpText(explainSpec));
    return 0;
  }
  const wanted = positionals.join(' ').trim();
  if (!wanted) {
    io.out(fullErrorReference());
    return 0;
  }
  const lower = wanted.toLowerCase();
  const entry = catalogEntries().find((e) => e.code.toLowerCase() === lower || e.name.toLowerCase() === lower);
  if (entry) {
    io.out(entryMarkdown(entry, lintExamples().get(entry.code)));
    return 0;
  }
  const format = explainFormat(wanted);
  if (format) {
    io.out(format);
    return 0;
  }
  const names = [...catalogEntries().flatMap((e) => [e.code, e.name]), ...formatNames()];
  const guess = closest(wanted.split('.').at(-1)!, names);
  io.err(`packet explain: no error code, error name, packet file or frontmatter field "${wanted}"${guess ? `; did you mean "${guess}"?` : '.'} \`packet explain fields\` lists every field, \`packet explain\` every error.\n`);
  return 1;
}
