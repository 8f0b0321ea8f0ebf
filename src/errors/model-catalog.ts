import { entry } from './entry.ts';

/** The model rehearsal catalog (PK6xx). Never renumber or rename an entry. */
export const ModelErrors = {
  // Entries are added here with entry<{ ...params }>({ code, name, title, severity, message, hint }).
} as const satisfies Record<string, ReturnType<typeof entry<any>>>;
