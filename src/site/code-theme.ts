import { HighlightStyle } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';

/**
 * The shiki theme of every highlighted block on the site (starter files here, the prompt's code
 * fences through `markdown.shikiConfig` in astro.config.mjs): shiki's `css-variables` theme, whose
 * token colours are CSS variables that src/styles/site.css sets twice, from GitHub's light and dark
 * default palettes (every token at WCAG AA contrast on its background; the e2e axe scan checks both).
 * One tokenization per block, whatever the reader's colour scheme: shiki's dual themes tokenize
 * each block once per theme, and the two did not always agree, so pages differed between builds.
 */
export const CODE_THEME = 'css-variables';

const token = (name: string) => `var(--astro-code-token-${name})`;

/**
 * The lab editor's syntax colours: the same CSS variables as the highlighted blocks, so the
 * editor follows the reader's theme and keeps every token at AA contrast in both (CodeMirror's
 * default style is one light palette, unreadable on a dark page).
 */
export const CODE_HIGHLIGHT = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword, t.operatorKeyword, t.self], color: token('keyword') },
  { tag: [t.string, t.special(t.string), t.regexp, t.escape], color: token('string') },
  { tag: [t.comment, t.lineComment, t.blockComment, t.docString], color: token('comment'), fontStyle: 'italic' },
  { tag: [t.number, t.bool, t.null, t.atom, t.constant(t.variableName)], color: token('constant') },
  { tag: [t.function(t.variableName), t.function(t.definition(t.variableName)), t.definition(t.className), t.className], color: token('function') },
  { tag: [t.propertyName, t.attributeName, t.typeName], color: token('parameter') },
  { tag: [t.operator, t.punctuation, t.bracket, t.separator], color: token('punctuation') },
  { tag: t.invalid, color: token('keyword') },
]);
