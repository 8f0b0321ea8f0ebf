/**
 * The shiki themes of every highlighted block on the site (starter files here, the prompt's code
 * fences through `markdown.shikiConfig` in astro.config.mjs): GitHub's light and dark default
 * palettes, which keep every token at WCAG AA contrast on their own backgrounds (the e2e axe scan
 * checks both). The light one is inline; the dark one is in `--shiki-dark` variables, which the
 * stylesheet switches to under `prefers-color-scheme: dark`.
 */
export const CODE_THEMES = { light: 'github-light-default', dark: 'github-dark-default' } as const;
