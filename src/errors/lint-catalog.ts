import { entry } from './entry.ts';

/** The lint catalog (PK2xx): one entry per lint rule. Never renumber or rename an entry. */
export const LintErrors = {
  // Rules add their entries here, e.g.
  // PromptLength: entry<{ words: number; max: number }>({ code: 'PK201', ... }),
} as const satisfies Record<string, ReturnType<typeof entry<any>>>;
