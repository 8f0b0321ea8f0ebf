// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';

export default defineConfig({
  site: 'http://127.0.0.1',
  integrations: [mdx()],
  trailingSlash: 'always',
  build: { format: 'directory' },
  devToolbar: { enabled: false },
  // The same theme as src/site/code-theme.ts, for the code fences of rendered Markdown (the prompts).
  markdown: { shikiConfig: { theme: 'css-variables' } },
});
