import type { Rule } from '../rule.ts';
import { codeFenceLang } from './code-fence-lang.ts';
import { drillDiffContext } from './drill-diff-context.ts';
import { drillVerdictBalance } from './drill-verdict-balance.ts';
import { keyReasonLength } from './key-reason-length.ts';
import { labKeyBalance } from './lab-key-balance.ts';
import { labReadme } from './lab-readme.ts';
import { handInField } from './hand-in-field.ts';
import { failureNarrative } from './failure-narrative.ts';
import { failureSignal } from './failure-signal.ts';
import { failuresCount } from './failures-count.ts';
import { mdxSyntax } from './mdx-syntax.ts';
import { noModelNames } from './no-model-names.ts';
import { noSecrets } from './no-secrets.ts';
import { promptDeliverables } from './prompt-deliverables.ts';
import { promptHardLimits } from './prompt-hard-limits.ts';
import { promptLength } from './prompt-length.ts';
import { promptStopRule } from './prompt-stop-rule.ts';
import { promptTestCommand } from './prompt-test-command.ts';
import { reviewerHeading } from './reviewer-heading.ts';
import { rubricHireBar } from './rubric-hire-bar.ts';
import { rubricLevels } from './rubric-levels.ts';
import { rubricRows } from './rubric-rows.ts';
import { rubricTime } from './rubric-time.ts';
import { sampleLabel } from './sample-label.ts';

/**
 * Every lint rule, in catalog order. The error reference and docs/lint.md read their docs from
 * here: `id`, `defaultSeverity`, `entry.code`, `docs.summary`, `docs.bad`, `docs.good`.
 */
export const lintRules: readonly Rule[] = [
  promptLength,
  promptHardLimits,
  promptStopRule,
  promptDeliverables,
  promptTestCommand,
  noModelNames,
  noSecrets,
  rubricRows,
  rubricLevels,
  rubricTime,
  rubricHireBar,
  failuresCount,
  failureSignal,
  failureNarrative,
  sampleLabel,
  codeFenceLang,
  mdxSyntax,
  labReadme,
  labKeyBalance,
  drillVerdictBalance,
  drillDiffContext,
  keyReasonLength,
  reviewerHeading,
  handInField,
];
