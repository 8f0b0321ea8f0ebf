import { z } from 'astro/zod';

/** A lowercase kebab-case identifier: `token-shape`, `raw-line-cache`. */
export const kebabId = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use lowercase letters, digits and single dashes, e.g. "token-shape"');

/** A semantic version such as `1.2.0`. */
export const semver = z
  .string()
  .regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/, 'use a semantic version such as "1.0.0"');

/**
 * A path relative to the packet folder or a tree: forward slashes, no `..` segment, not absolute.
 * Symlinks are refused when the tree is read, not here.
 */
export const relativePath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(p), 'must be a relative path, not an absolute one')
  .refine((p) => !p.split(/[\\/]/).includes('..'), 'must not contain a ".." segment')
  .refine((p) => !p.includes('\\'), 'use forward slashes');

/** A glob relative to a tree, with the same safety rules as {@link relativePath}. */
export const relativeGlob = relativePath;

/** A calendar date written as `YYYY-MM-DD` (YAML dates are kept as text). */
export const isoDate = z.union([
  z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'use a date such as "2026-11-29"'),
  z.date().transform((d) => d.toISOString().slice(0, 10)),
]);
