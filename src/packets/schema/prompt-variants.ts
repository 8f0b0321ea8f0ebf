import { z } from 'astro/zod';
import { field } from './field-doc.ts';

/**
 * The `variants` field of a prompt: the parameters every variant of the packet draws (from the
 * packet's `seed` and the variant's number, src/packets/variants.ts), and how many variants a
 * build makes. docs/variants.md has the syntax of the placeholders that use them.
 */

/** The most variants a packet may ask for. */
export const VARIANTS_MAX = 100;

/** The most parameters a packet may declare. */
export const VARIANT_PARAMS_MAX = 32;

/** The longest text value of a parameter. */
export const VARIANT_VALUE_MAX = 200;

/** The widest `int` range, so every draw stays an exact integer. */
export const VARIANT_INT_SPAN_MAX = 1_000_000_000;

/** The name of a parameter: what `[[variant.NAME]]` names. */
export const VARIANT_PARAM_NAME = /^[a-z][a-z0-9_]*$/;

/** One value a parameter can take: a line of text or a finite number. */
export const variantValueSchema = z.union([
  z
    .string()
    .min(1, { message: 'give a non-empty text, or a number' })
    .max(VARIANT_VALUE_MAX, { message: `keep a value to at most ${VARIANT_VALUE_MAX} characters` })
    .refine((v) => !/[\r\n]/.test(v), { message: 'a value is one line: it is written into code and YAML, where a line break would change what it means' })
    .refine((v) => !/[\u0000-\u0009\u000b-\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/.test(v), {
      message: 'a value may not hold a control, bidi or zero-width character: it would hide in the code it is written into',
    })
    .refine((v) => !v.includes('[[variant.'), { message: 'a value must not hold a placeholder ("[[variant."): values are written as they are, never expanded again' }),
  z.number().finite(),
]);

/** A value of a parameter, as drawn. */
export type VariantValue = z.infer<typeof variantValueSchema>;

/** One parameter: exactly one of `pick`, `int` and `value`. */
export const variantParamSchema = z
  .strictObject({
    pick: field(
      z
        .array(variantValueSchema)
        .min(2, { message: 'a pick needs at least two values to choose from; for one value write "value:"' })
        .refine((vs) => new Set(vs.map((v) => JSON.stringify(v))).size === vs.length, { message: 'the values of a pick must differ: remove the repeated one' })
        .optional(),
      { description: 'The values to choose from, each drawn as likely as the others.', examples: [['retries', 'attempts', 'tries']] },
    ),
    int: field(
      z
        .tuple([z.int(), z.int()])
        .refine(([min, max]) => min < max, { message: 'write [min, max] with min below max; for one number write "value:"' })
        .refine(([min, max]) => max - min <= VARIANT_INT_SPAN_MAX, { message: `keep the range to at most ${VARIANT_INT_SPAN_MAX} wide` })
        .optional(),
      { description: 'An integer range `[min, max]`, both ends included, every integer as likely.', examples: [[3, 9]] },
    ),
    value: field(variantValueSchema.optional(), { description: 'One value, the same in every variant: a constant the files share.', examples: ['fetch_page'] }),
  })
  .refine((p) => [p.pick, p.int, p.value].filter((x) => x !== undefined).length === 1, {
    message: 'give a parameter exactly one of "pick: [..]", "int: [min, max]" or "value: .."',
  });

/** A parameter as declared. */
export type VariantParam = z.infer<typeof variantParamSchema>;

/** The `variants` field. */
export const variantsSchema = z.strictObject({
  count: field(
    z
      .int()
      .min(1, { message: 'a packet has at least one variant' })
      .max(VARIANTS_MAX, { message: `the kit builds at most ${VARIANTS_MAX} variants of a packet` })
      .optional(),
    {
      description: `How many variants \`packet build\` makes (at most ${VARIANTS_MAX}): one candidate zip each, \`<id>-<version>-v<k>.zip\`. Left out, 1; \`packet build --variants N\` overrides it.`,
      examples: [20],
    },
  ),
  params: field(
    z
      .record(z.string(), variantParamSchema)
      .superRefine((r, ctx) => {
        for (const name of Object.keys(r)) {
          if (!VARIANT_PARAM_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: `rename the parameter "${name}" with lowercase letters, digits and underscores, starting with a letter, e.g. "max_calls"` });
        }
      })
      .refine((r) => Object.keys(r).length >= 1, { message: 'declare at least one parameter, or remove "variants"' })
      .refine((r) => Object.keys(r).length <= VARIANT_PARAMS_MAX, { message: `declare at most ${VARIANT_PARAMS_MAX} parameters` }),
    {
      description:
        'The parameters, by name: each `{ pick: [..] }`, `{ int: [min, max] }` or `{ value: .. }`. Every variant draws its values from the packet\'s `seed` and its number, the same on every machine; the prompt, the parts, the starter, the sample, the hidden tests, the mutants and the replies use them as `[[variant.NAME]]` (docs/variants.md).',
      examples: [{ limit: { int: [3, 9] }, verb: { pick: ['fetch', 'load', 'pull'] } }],
    },
  ),
});

/** Parsed `variants` field. */
export type VariantsSpec = z.infer<typeof variantsSchema>;
