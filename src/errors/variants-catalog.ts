import { entry } from './entry.ts';

/**
 * The catalog of a packet's variants (PK150-PK159): the placeholders, the parameters and the
 * rendered variants, checked by `packet check` and the build's check step, and the rehearsal's
 * defects of variants (PK158, PK159). Never renumber or
 * rename an entry.
 */
export const VariantErrors = {
  VariantPlaceholderUnknown: entry<{ name: string; known: string }>({
    code: 'PK150',
    name: 'VariantPlaceholderUnknown',
    title: 'A placeholder names no parameter',
    severity: 'error',
    message: ({ name, known }) => `The placeholder [[variant.${name}]] names no parameter of the prompt's "variants.params" (known: ${known}), so every variant would keep it as written.`,
    hint: ({ known }) => `Name one of ${known}, or declare the parameter under "variants.params" in prompt.mdx.`,
  }),
  VariantParamUnused: entry<{ name: string }>({
    code: 'PK151',
    name: 'VariantParamUnused',
    title: 'A parameter is used by no file',
    severity: 'warning',
    message: ({ name }) => `The parameter "${name}" is declared but no file of the packet writes [[variant.${name}]], so its values change nothing.`,
    hint: ({ name }) => `Write [[variant.${name}]] where the value belongs (the prompt, the starter, the hidden tests), or remove the parameter.`,
  }),
  VariantParamReserved: entry<{ name: string }>({
    code: 'PK152',
    name: 'VariantParamReserved',
    title: 'A parameter takes a built-in name',
    severity: 'error',
    message: ({ name }) => `The parameter "${name}" collides with the built-in placeholder [[variant.${name}]] (the variant's id, v1, v2, ...).`,
    hint: () => 'Rename the parameter, and its placeholders.',
  }),
  VariantCountTooLarge: entry<{ count: number; combinations: number }>({
    code: 'PK153',
    name: 'VariantCountTooLarge',
    title: 'More variants than distinct values',
    severity: 'error',
    message: ({ count, combinations }) => `The packet asks for ${count} variants, but its parameters have only ${combinations} distinct combination${combinations === 1 ? '' : 's'} of values, so two variants would be the same.`,
    hint: ({ combinations }) => `Ask for at most ${combinations} variants ("variants.count" or --variants), or give the parameters more values.`,
  }),
  VariantDoesNotParse: entry<{ variant: string; values: string; reason: string }>({
    code: 'PK154',
    name: 'VariantDoesNotParse',
    title: 'A variant does not parse',
    severity: 'error',
    message: ({ variant, values, reason }) => `Variant ${variant} (${values}) is not a valid packet once its values are written in: ${reason}`,
    hint: () => 'Quote a placeholder that starts a YAML value, or give the parameter values that fit where they are written.',
  }),
  VariantPlaceholderUndeclared: entry<{ name: string }>({
    code: 'PK155',
    name: 'VariantPlaceholderUndeclared',
    title: 'A placeholder in a packet without variants',
    severity: 'error',
    message: ({ name }) => `The file writes [[variant.${name}]], but the prompt declares no "variants", so the placeholder would ship as written.`,
    hint: ({ name }) => `Declare "variants: { params: { ${name}: ... } }" in prompt.mdx, or remove the placeholder.`,
  }),
  VariantsIdentical: entry<{ variant: string; other: string }>({
    code: 'PK156',
    name: 'VariantsIdentical',
    title: 'Two variants render the same files',
    severity: 'error',
    message: ({ variant, other }) => `Variants ${other} and ${variant} render to the same files (the same digest): their values differ only in parameters no file uses.`,
    hint: () => 'Use every parameter in a file, or remove the unused ones.',
  }),
  VariantsNotRehearsed: entry<{ packet: string }>({
    code: 'PK157',
    name: 'VariantsNotRehearsed',
    title: 'A packet with variants could not be rehearsed (no longer raised)',
    severity: 'error',
    message: ({ packet }) => `The packet "${packet}" has variants, and this kit's rehearsal proved a packet's own files, not each rendered variant. No longer raised: the rehearsal proves every variant (docs/variants.md), and the code is kept so it keeps its meaning.`,
    hint: () => 'Nothing to do: `packet build` rehearses every variant of a packet; --skip-rehearse is no longer needed for one.',
  }),
  VariantWeaker: entry<{ variant: string; values: string; checks: string; others: string }>({
    code: 'PK158',
    name: 'VariantWeaker',
    title: 'A variant fails closed worse than the others',
    severity: 'error',
    message: ({ variant, values, checks, others }) => `Variant ${variant} (${values}) fails closed worse than the others: ${checks} fails in it and holds in ${others}. A candidate given this variant is judged by weaker tests.`,
    hint: ({ variant }) => `Read ${variant}'s failed checks above: a test that only catches the mistake for some values (a parameter in an input that the mistake gets right by chance) needs an input that catches it for every value of the parameter.`,
  }),
  VariantAnswerCrosses: entry<{ answer: string; from: string; fromValues: string; to: string; toValues: string }>({
    code: 'PK159',
    name: 'VariantAnswerCrosses',
    title: "One variant's answer passes another variant's hidden tests",
    severity: 'error',
    message: ({ answer, from, fromValues, to, toValues }) =>
      `${answer} of variant ${from} (${fromValues}), laid over the starter of variant ${to} (${toValues}), passes its tests, hidden ones included: the parameters do not reach the tests, so an answer copied from one variant passes another.`,
    hint: () =>
      "Make a hidden test depend on a parameter: write [[variant.NAME]] into hidden/ (a function name, a limit, an expected value) so that an answer made for one variant fails another. In a lab (whose answer is the key's choices composed into the files its suggestions change), write it into those files too: the starter's code around the suggestions' regions, or the offered and revised code in assistant.mdx.",
  }),
};
