import type { BuildStatus } from '../packets/build-status.ts';
import { languageLabel } from './format.ts';

/** A fact on a card: its label, its value, and the `data-fact` name the tests and the filter find it by. */
export interface CardFact {
  label: string;
  value: string;
  fact?: string;
}

/** What a catalog card shows, whatever the kind of the packet. */
export interface CardView {
  id: string;
  /** The packet's own page. */
  href: string;
  title: string;
  summary: string;
  level: string;
  language: string;
  tags: readonly string[];
  /** The kind's word under the title ("Lab", "Drill"); none on a take-home. */
  kind?: string;
  /** The facts, in the order shown. */
  facts: CardFact[];
  /** The words the catalog's search matches. */
  search: string;
  /** Its zip and rehearsal, from the build manifest, for a kind that has them. */
  status?: BuildStatus;
}

/** The prompt fields a card reads, the same in every kind. */
interface CardPrompt {
  title: string;
  summary: string;
  level: string;
  language: string;
  tags: readonly string[];
  minutes: number;
  version: string;
}

function base(id: string, href: string, prompt: CardPrompt, searchWords: readonly string[] = []): Omit<CardView, 'facts'> {
  const { title, summary, level, language, tags } = prompt;
  return { id, href, title, summary, level, language, tags, search: [title, summary, id, language, ...searchWords, ...tags].join(' ') };
}

const language = (prompt: CardPrompt): CardFact => ({ label: 'Language', value: languageLabel(prompt.language) });
const time = (prompt: CardPrompt): CardFact => ({ label: 'Time', value: `${prompt.minutes} min` });
const version = (prompt: CardPrompt): CardFact => ({ label: 'Version', value: prompt.version, fact: 'version' });

/** The card of a take-home or a lab (a lab opens on its own page and counts the assistant's suggestions). */
export function packetCard(packet: { id: string; prompt: CardPrompt; visibleTests?: number; lab?: { suggestions: readonly unknown[] } }, status: BuildStatus): CardView {
  const { id, prompt, lab } = packet;
  const tests: CardFact = { label: 'Tests', value: String(packet.visibleTests ?? 'n/a'), fact: 'tests' };
  if (!lab) return { ...base(id, `/packets/${id}/`, prompt), facts: [language(prompt), time(prompt), tests, version(prompt)], status };
  const suggestions: CardFact = { label: 'Suggestions', value: String(lab.suggestions.length), fact: 'suggestions' };
  return { ...base(id, `/labs/${id}/`, prompt), kind: 'Lab', facts: [language(prompt), suggestions, tests, time(prompt), version(prompt)], status };
}

/** The card of a drill: its diffs, no zip. */
export function drillCard(drill: { id: string; prompt: CardPrompt; diffs: readonly unknown[] }): CardView {
  const { id, prompt } = drill;
  const diffs: CardFact = { label: 'Diffs', value: String(drill.diffs.length), fact: 'diffs' };
  return { ...base(id, `/drills/${id}/`, prompt, ['drill']), kind: 'Drill', facts: [language(prompt), diffs, time(prompt), version(prompt)] };
}
