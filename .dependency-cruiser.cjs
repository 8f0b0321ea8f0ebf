/** Module boundaries of src/, checked by tests/unit/architecture.test.ts. */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'No import cycles, type-only imports included.', from: {}, to: { circular: true } },
    {
      name: 'llm-stands-alone',
      severity: 'error',
      comment: 'The endpoint client knows nothing of packets, judging, rehearsal or grading.',
      from: { path: '^src/llm/' },
      to: { path: '^src/(judge|rehearse|grade|bundle|cli|lint|packets|sandbox|mutate)/' },
    },
    {
      name: 'judge-below-rehearsal',
      severity: 'error',
      comment: 'The judge decides verdicts from evidence; the rehearsal, the CLI and the endpoint client sit above it.',
      from: { path: '^src/judge/' },
      to: { path: '^src/(rehearse|cli|bundle|llm|lint|mutate)/' },
    },
    {
      name: 'mutate-below-cli',
      severity: 'error',
      comment: 'Mutation runs use the endpoint client and the judge; the CLI and the bundles sit above them, the rehearsal beside them.',
      from: { path: '^src/mutate/' },
      to: { path: '^src/(rehearse|cli|bundle|grade|lint)/' },
    },
    {
      name: 'packets-model-is-pure',
      severity: 'error',
      comment: 'The packet model is read by the CLI and the Astro site alike (the sandbox caps and the screened primitive ids it validates are plain constants).',
      from: { path: '^src/packets/' },
      to: { path: '^src/(judge|rehearse|grade|bundle|cli|lint|llm|sandbox|mutate)/', pathNot: '^src/(sandbox/limits|judge/primitives)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    parser: 'swc',
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
};
