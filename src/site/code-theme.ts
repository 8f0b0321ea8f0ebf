/**
 * The shiki theme of every highlighted block on the site (starter files here, the prompt's code
 * fences through `markdown.shikiConfig` in astro.config.mjs). GitHub's light default palette keeps
 * every token at WCAG AA contrast on its white background; the e2e axe scan checks it.
 */
export const CODE_THEME = 'github-light-default';
