import { entry } from './entry.ts';

/** The command line (PK8xx): a flag the CLI cannot take as given. Never renumber or rename an entry. */
export const CliErrors = {
  FlagValueInvalid: entry<{ flag: string; value: string; allowed: string }>({
    code: 'PK801',
    name: 'FlagValueInvalid',
    title: 'A flag has a value it does not take',
    severity: 'error',
    message: ({ flag, value, allowed }) => `--${flag} must be ${allowed}, not "${value}".`,
    hint: ({ flag }) => `Give --${flag} a value it takes, or leave it out for its default; nothing was run.`,
  }),
} as const satisfies Record<string, ReturnType<typeof entry<any>>>;
