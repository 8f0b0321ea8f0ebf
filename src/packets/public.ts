import { z } from 'astro/zod';
import type { LabModel } from './lab-model.ts';
import type { CodePacketBase } from './packet-base.ts';
import { promptSchema } from './schema/prompt.ts';
import { rubricSchema } from './schema/rubric.ts';
import { countVisibleTests } from './visible-tests.ts';
import { splitRubricBody } from './rubric-notes.ts';

/** A starter file as the public site sees it. */
export const publicFileSchema = z.strictObject({
  /** Path relative to `starter/`. */
  path: z.string(),
  /** Size in bytes. */
  size: z.int().nonnegative(),
  /** sha256 of the contents, hex. */
  sha256: z.string(),
  /** The contents, for text files up to 64 KiB; absent for binary or larger files. */
  text: z.string().optional(),
});

/** A lab suggestion as the candidate sees it: what was asked, what the assistant said and offered, and its revision. Never its key. */
export const publicSuggestionSchema = z.strictObject({
  /** The suggestion's id. */
  id: z.string(),
  /** The starter file it changes. */
  file: z.string(),
  /** 1-based first and last line of its region in the starter file. */
  fromLine: z.int().positive(),
  toLine: z.int().positive(),
  /** What the candidate asked. */
  ask: z.string(),
  /** What the assistant said. */
  message: z.string(),
  /** The region as the starter has it. */
  original: z.string(),
  /** The region as offered. */
  offered: z.string(),
  /** The region as revised after pushback. */
  revised: z.string(),
});

/** A lab as the candidate sees it: the suggestions and the files they change, as segments (see lab-compose.ts). */
export const publicLabSchema = z.strictObject({
  /** The suggestions, in order. */
  suggestions: z.array(publicSuggestionSchema),
  /** Each changed file: fixed text, and the index of the suggestion whose region goes between. */
  files: z.array(z.strictObject({ path: z.string(), segments: z.array(z.union([z.string(), z.int().nonnegative()])) })),
});

/** A lab as the candidate sees it. */
export type PublicLab = z.infer<typeof publicLabSchema>;

/**
 * The public view of a packet: the prompt, the rubric and the starter tree, nothing else.
 * The site's content collection holds only this, so secrets are absent by construction.
 */
export const publicPacketSchema = z.strictObject({
  /** The packet id. */
  id: z.string(),
  /** The packet's content digest. */
  digest: z.string(),
  /** The prompt's frontmatter. */
  prompt: promptSchema,
  /** The prompt body, as the candidate reads it. */
  promptBody: z.string(),
  /** The rubric's frontmatter. */
  rubric: rubricSchema,
  /** The rubric's body without its reviewer-only sections (see rubric-notes.ts): what the zip's RUBRIC.md and the rubric page show. */
  rubricBody: z.string(),
  /** The starter tree. */
  starter: z.array(publicFileSchema),
  /** Test functions in the starter's visible tests, counted statically (see `countVisibleTests`); absent for a language without a known convention. */
  visibleTests: z.int().nonnegative().optional(),
  /** A lab's suggestions as the candidate sees them (never their key); absent for a take-home. */
  lab: publicLabSchema.optional(),
  /**
   * For a packet with variants: the variant this view shows (its files rendered, so no
   * placeholder is left), its digest, and how many variants the build made. `digest` above stays
   * the packet's own. Absent for a packet without variants.
   */
  variant: z
    .strictObject({
      /** `v<number>`. */
      id: z.string(),
      number: z.int().positive(),
      /** The digest of the variant's rendered files: what its zip's README and its lab page's answer sheet carry. */
      digest: z.string(),
      /** How many variants the build made (`--variants N`, else `variants.count`). */
      count: z.int().positive(),
    })
    .optional(),
});

/** The public view of a packet. */
export type PublicPacket = z.infer<typeof publicPacketSchema>;

/** Starter files up to this size are carried as text for the site. */
export const PUBLIC_TEXT_LIMIT = 64 * 1024;

/** Project a packet onto its public view; `readStarter` gives a starter file's bytes. */
export function publicPacket(packet: CodePacketBase & { lab?: LabModel }, readStarter: (path: string) => Uint8Array | undefined = () => undefined): PublicPacket {
  const starter = packet.entries
    .filter((e) => e.kind === 'file' && e.path.startsWith('starter/'))
    .map((e) => {
      const path = e.path.slice('starter/'.length);
      const bytes = e.size <= PUBLIC_TEXT_LIMIT ? readStarter(path) : undefined;
      const text = bytes ? decodeText(bytes) : undefined;
      return { path, size: e.size, sha256: e.sha256, ...(text !== undefined ? { text } : {}) };
    });
  const visibleTests = countVisibleTests(packet.prompt.data.language, starter);
  const lab = packet.lab;
  return {
    id: packet.id,
    digest: packet.digest,
    prompt: packet.prompt.data,
    promptBody: packet.prompt.body,
    rubric: packet.rubric.data,
    rubricBody: splitRubricBody(packet.rubric).publicBody,
    starter,
    ...(visibleTests !== undefined ? { visibleTests } : {}),
    ...(lab ? { lab: publicLab(lab) } : {}),
  };
}

/** A resolved lab without its key. */
export function publicLab(model: LabModel): PublicLab {
  return {
    suggestions: model.suggestions.map((s) => ({ id: s.id, file: s.file, fromLine: s.fromLine, toLine: s.toLine, ask: s.ask, message: s.message, original: s.original, offered: s.offered, revised: s.revised })),
    files: model.files.map((f) => ({ path: f.path, segments: [...f.segments] })),
  };
}

function decodeText(bytes: Uint8Array): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.includes('\u0000') ? undefined : text;
  } catch {
    return undefined;
  }
}
