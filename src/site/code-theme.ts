/**
 * The shiki theme of every highlighted block on the site (starter files here, the prompt's code
 * fences through `markdown.shikiConfig` in astro.config.mjs): shiki's `css-variables` theme, whose
 * token colours are CSS variables that src/styles/site.css sets twice, from GitHub's light and dark
 * default palettes (every token at WCAG AA contrast on its background; the e2e axe scan checks both).
 * One tokenization per block, whatever the reader's colour scheme: shiki's dual themes tokenize
 * each block once per theme, and the two did not always agree, so pages differed between builds.
 */
export const CODE_THEME = 'css-variables';
