import { entry } from './entry.ts';

/** The bundle and build catalog (PK3xx). Never renumber or rename an entry. */
export const BundleErrors = {
  // Entries are added here with entry<{ ...params }>({ code, name, title, severity, message, hint }).
} as const satisfies Record<string, ReturnType<typeof entry<any>>>;
