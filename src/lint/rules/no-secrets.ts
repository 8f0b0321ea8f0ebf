import { LintErrors } from '../../errors/lint-catalog.ts';
import { scanManyForSecrets, type ScanText } from '../secrets.ts';
import { defineRule } from '../rule.ts';

export const noSecrets = defineRule({
  id: 'no-secrets',
  defaultSeverity: 'error',
  entry: LintErrors.SecretInPacket,
  kinds: ['takehome', 'lab'],
  docs: {
    summary:
      'No key, token or credential in the part files or in any starter file. The scan is secretlint\'s recommended preset (a maintained rule set: cloud keys, GitHub, Slack and npm tokens, private keys, passwords in URLs, ...), not a home-made list. The diagnostic names the kind of secret, never the secret, and the terminal shows no code frame for them, so the secret is not printed again. Binary starter files are skipped. The secret trees (sample/, hidden/, mutants/, replies/) are left to the bundle\'s scan.',
    bad: 'const token = "ghp_" + 36 real-looking characters, in starter/src/client.py',
    good: 'token = os.environ["API_TOKEN"]  # read at run time, never written down',
  },
  async check(ctx) {
    const texts: ScanText[] = ctx.parts.map((name) => ({ text: ctx.part(name).text, file: ctx.part(name).file }));
    for (const file of await ctx.starterFiles()) if (file.text !== undefined) texts.push({ text: file.text, file: file.file });
    return (await scanManyForSecrets(texts)).map(({ index: _, ...finding }) => finding);
  },
});
