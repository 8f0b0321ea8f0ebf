import { entry } from './entry.ts';

/** The command line (PK8xx): a flag the CLI cannot take as given. Never renumber or rename an entry. */
export const CliErrors = {
  FlagValueInvalid: entry<{ command: string; flag: string; value: string; allowed: string }>({
    code: 'PK801',
    name: 'FlagValueInvalid',
    title: 'A flag has a value it does not take',
    severity: 'error',
    message: ({ flag, value, allowed }) => `--${flag} must be ${allowed}, not "${value}".`,
    hint: ({ command, flag }) => `Give --${flag} a value it takes; \`packet ${command} --help\` lists every flag with its values and default. Nothing was run.`,
  }),
} as const satisfies Record<string, ReturnType<typeof entry<any>>>;
