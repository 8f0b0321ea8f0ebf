/**
 * Module boundaries of src/, checked by tests/unit/architecture.test.ts (the TypeScript files
 * through dependency-cruiser, the .astro files by the same test, which reads their imports).
 *
 * The layer order of src/'s folders, bottom first. A folder imports only folders of the layers
 * below its own: not a folder of a layer above, not a folder beside it in its own layer. Files
 * directly in src/ (the Astro content config) sit on top of every layer.
 */
const fs = require('node:fs');
const path = require('node:path');

const LAYERS = [
  // The error catalog and the diagnostic type; the kit's identity and fingerprint; the site's CSS.
  ['errors', 'kit', 'styles'],
  // Run a command in isolation (with the resource caps a packet may ask for); the OpenAI-compatible client; a static file server.
  ['sandbox', 'llm', 'preview'],
  // The packet model: schemas, parse, loaders, the Markdown body parser, the screened primitive ids.
  ['packets'],
  // Rules on the Markdown tree (and the secret scanner); evidence in, verdict out (and the scorecard on the rubric).
  ['lint', 'judge'],
  // The lab tables and their precompute (on a sandbox they are handed).
  ['labs'],
  // One run context: sandbox, scratch root, endpoint, key, budget, the lab tables on its sandbox; the model turn loop.
  ['runs'],
  // The runs: a rehearsal with models, the grading of a candidate, the mutation of a packet.
  ['rehearse', 'grade', 'mutate'],
  // `packet check` (lint, file policy, version drift); reports; the generated references; reviewer agreement.
  ['check', 'report', 'docs', 'agreement'],
  // The zips and the site build (it runs the check first).
  ['bundle'],
  // The calibration set of a packet: its sample and mutants as anonymous zips (the candidate zip), graded, and their key.
  ['calibrate'],
  // The commands: parse, call, print.
  ['cli'],
  // The site's TypeScript, read by its components and pages.
  ['site'],
  ['components', 'layouts'],
  ['pages', 'report-site'],
];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const anyOf = (folders) => `^src/(${folders.map(escape).join('|')})/`;

/** Each folder and the folders it may not import (the ones beside it and above it). */
function forbiddenTargets() {
  return LAYERS.flatMap((layer, i) =>
    layer.map((folder) => ({ folder, targets: [...layer.filter((f) => f !== folder), ...LAYERS.slice(i + 1).flat()] })),
  ).filter((r) => r.targets.length > 0);
}

/**
 * The folders of src/ with an index.ts at their top. A folder's public face is what its users
 * import: a folder without an index.ts is entered at the module that defines what its user
 * needs; a folder with one is entered there only (a module outside imports that file, nothing
 * behind it), and the test checks that someone outside does import it. Subfolders (lint/rules/,
 * packets/schema/) are their folder's own business.
 */
function faceFolders(root = path.join(__dirname, 'src')) {
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(root, e.name, 'index.ts')))
    .map((e) => `src/${e.name}`)
    .sort();
}

/**
 * Edges that break a rule today and are on their way out, each with the change that removes it.
 * The test fails on an entry that no longer matches a violation, so the list only shrinks.
 */
const KNOWN_VIOLATIONS = [];

/** The rules of the layer order: one per folder, naming the folders it may not import. */
function layerRules() {
  return forbiddenTargets().map(({ folder, targets }) => ({
    name: `layer-${folder}`,
    severity: 'error',
    comment: `src/${folder}/ imports only folders of the layers below its own (.dependency-cruiser.cjs LAYERS).`,
    from: { path: `^src/${escape(folder)}/` },
    to: { path: anyOf(targets) },
  }));
}

/** The rule that keeps a folder with an index.ts entered there only. */
function faceRule(dir) {
  return {
    name: `face-${dir.slice('src/'.length)}`,
    severity: 'error',
    comment: `${dir}/index.ts is the folder's public face: a module outside ${dir}/ imports that file, not one behind it.`,
    from: { pathNot: `^${escape(dir)}/` },
    to: { path: `^${escape(dir)}/`, pathNot: `^${escape(dir)}/index\\.ts$` },
  };
}

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'No import cycles, type-only imports included.', from: {}, to: { circular: true } },
    {
      name: 'no-folder-loop',
      severity: 'error',
      comment: 'No two folders of src/ import each other, directly or through others.',
      scope: 'folder',
      from: { path: '^src/[^/]+$' },
      to: { circular: true },
    },
    ...layerRules(),
    ...faceFolders().map(faceRule),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    parser: 'swc',
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
};

// For the test, beside the configuration proper (not enumerable: the cruiser clones and validates what is).
for (const [name, value] of Object.entries({ LAYERS, KNOWN_VIOLATIONS, faceFolders, faceRule })) {
  Object.defineProperty(module.exports, name, { value, enumerable: false });
}
