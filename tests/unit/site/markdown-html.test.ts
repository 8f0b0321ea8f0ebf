import { describe, expect, it } from 'vitest';
import { markdownHtml } from '../../../src/site/markdown-html.ts';

describe('markdownHtml: a codebase README as HTML at build time', () => {
  it('renders headings (moved down), lists, code and emphasis', () => {
    const html = markdownHtml('# Rules\n\n- one *two*\n- `three`\n\n```py\nx < 1\n```\n', 1);
    expect(html).toContain('<h2>Rules</h2>');
    expect(html).toContain('<li>one <em>two</em></li>');
    expect(html).toContain('<li><code>three</code></li>');
    expect(html).toContain('<pre><code>x &lt; 1</code></pre>');
  });

  it('shows raw HTML as text and keeps no script link', () => {
    const html = markdownHtml('<script>alert(1)</script>\n\n[a](javascript:alert(1)) [b](https://example.test/x) [c](rules/x.md) [d](" onmouseover="x)');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('<a href="#">a</a>');
    expect(html).toContain('<a href="https://example.test/x">b</a>');
    expect(html).toContain('<a href="rules/x.md">c</a>');
    expect(html).not.toMatch(/href="[^"]*"\s+onmouseover/);
  });

  it('never nests a heading past h6', () => {
    expect(markdownHtml('###### deep', 3)).toBe('<h6>deep</h6>\n');
  });
});
