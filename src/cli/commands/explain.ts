import { catalogEntries } from '../../errors/catalog.ts';
import { entryMarkdown, errorReferenceMarkdown } from '../../errors/reference.ts';
import type { CliIo } from '../io.ts';

/** `packet explain [CODE|NAME]`: the error reference, or one entry of it. */
export async function explainCommand(args: string[], io: CliIo): Promise<number> {
  const [wanted] = args;
  if (!wanted) {
    io.out(errorReferenceMarkdown());
    return 0;
  }
  const found = catalogEntries().find((e) => e.code.toLowerCase() === wanted.toLowerCase() || e.name.toLowerCase() === wanted.toLowerCase());
  if (!found) {
    io.err(`packet explain: no error "${wanted}". Run \`packet explain\` for the whole reference.\n`);
    return 1;
  }
  io.out(entryMarkdown(found));
  return 0;
}
