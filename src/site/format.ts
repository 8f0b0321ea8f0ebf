/** A byte count for people: `812 B`, `12.4 KB`, `3.1 MB` (powers of 1024, one decimal). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** The first 12 hex digits of a digest, as shown next to a version; the full digest goes in a title or beside it. */
export function shortDigest(digest: string): string {
  return digest.slice(0, 12);
}

/** The catalog's words for a seniority level. */
export const LEVEL_LABELS: Record<string, string> = {
  junior: 'Junior',
  mid: 'Mid-level',
  senior: 'Senior',
  staff: 'Staff',
  principal: 'Principal',
};

/** The site's words for a rehearsal status, and what each means. */
export const REHEARSAL_LABELS: Record<string, { label: string; meaning: string }> = {
  'fails-closed': {
    label: 'Fails closed',
    meaning: 'The offline rehearsal of this version proved that wrong or missing work ends red.',
  },
  defect: {
    label: 'Defect found',
    meaning: 'The offline rehearsal of this version found a defect: some wrong answer is not caught.',
  },
  inconclusive: {
    label: 'Inconclusive',
    meaning: 'The offline rehearsal of this version could not finish, so nothing is proven.',
  },
  'not-rehearsed': {
    label: 'Not rehearsed',
    meaning: 'This version has not been rehearsed in this build.',
  },
};

/** A language as written on the site: `python` becomes `Python`. */
export function languageLabel(language: string): string {
  const known: Record<string, string> = { javascript: 'JavaScript', typescript: 'TypeScript', go: 'Go', sql: 'SQL' };
  return known[language.toLowerCase()] ?? language.charAt(0).toUpperCase() + language.slice(1);
}
