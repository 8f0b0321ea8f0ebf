/** File extensions and the shiki language that highlights them. */
const BY_EXTENSION: Record<string, string> = {
  py: 'python',
  pyi: 'python',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  jsx: 'jsx',
  tsx: 'tsx',
  json: 'json',
  jsonl: 'json',
  md: 'markdown',
  mdx: 'mdx',
  toml: 'toml',
  yaml: 'yaml',
  yml: 'yaml',
  sh: 'bash',
  bash: 'bash',
  go: 'go',
  rs: 'rust',
  java: 'java',
  rb: 'ruby',
  sql: 'sql',
  html: 'html',
  css: 'css',
  ini: 'ini',
  cfg: 'ini',
};

/** Files known by their whole name. */
const BY_NAME: Record<string, string> = {
  Makefile: 'makefile',
  Dockerfile: 'docker',
};

/** The shiki language for a starter file, `plaintext` when unknown. */
export function codeLanguage(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const byName = BY_NAME[name];
  if (byName) return byName;
  const dot = name.lastIndexOf('.');
  return (dot > 0 && BY_EXTENSION[name.slice(dot + 1).toLowerCase()]) || 'plaintext';
}
