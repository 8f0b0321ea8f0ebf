import { entry } from './entry.ts';

/** The grading catalog (PK5xx). Never renumber or rename an entry. */
export const GradeErrors = {
  // Entries are added here with entry<{ ...params }>({ code, name, title, severity, message, hint }).
} as const satisfies Record<string, ReturnType<typeof entry<any>>>;
