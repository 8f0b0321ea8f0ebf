import { registerHooks } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readWorkflow, runStep } from '../support/workflow.ts';

/**
 * .github/workflows/rehearse.yml against GitHub's own workflow schema and parser
 * (@actions/workflow-parser, the parser of GitHub's Actions language services: it checks every
 * key against the schema GitHub ships in the package, workflow-v1.0.json, and the expressions
 * against the contexts each key allows), then what the workflow must do.
 */

// The package imports its schema as JSON without an import attribute, which Node's loader
// refuses; this adds the attribute for that package's JSON files only.
registerHooks({
  load(url, context, nextLoad) {
    if (url.includes('/@actions/workflow-parser/') && url.endsWith('.json')) return nextLoad(url, { ...context, importAttributes: { ...context.importAttributes, type: 'json' } });
    return nextLoad(url, context);
  },
});
const { parseWorkflow, convertWorkflowTemplate, NoOperationTraceWriter } = await import('@actions/workflow-parser');

async function schemaErrors(name: string, content: string): Promise<string[]> {
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  if (parsed.value) await convertWorkflowTemplate(parsed.context, parsed.value);
  return [...new Set(parsed.context.errors.getErrors().map((e) => e.message))];
}

const { text, workflow } = readWorkflow();
const jobs = workflow.jobs;
const needs = (job: string) => [jobs[job]!.needs ?? []].flat();

describe('the rehearsal workflow', () => {
  it('is valid against GitHub\'s workflow schema', async () => {
    expect(await schemaErrors('rehearse.yml', text)).toEqual([]);
  });

  it('is checked for real: a wrong key and an unknown context are errors', async () => {
    const broken = text.replace('runs-on: ubuntu-latest', 'runs_on: ubuntu-latest').replace('${{ matrix.shard }}/', '${{ matrx.shard }}/');
    const errors = await schemaErrors('rehearse.yml', broken);
    expect(errors.join('\n')).toMatch(/Unexpected value 'runs_on'/);
    expect(errors.join('\n')).toMatch(/Unrecognized named-value: 'matrx'/);
  });

  it('runs on push, pull request, a weekly schedule and by hand', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push', 'schedule', 'workflow_dispatch']);
    const [cron] = (workflow.on.schedule as { cron: string }[]).map((s) => s.cron);
    // minute hour * * weekday: once a week.
    expect(cron).toMatch(/^\d+ \d+ \* \* [0-6]$/);
    expect(workflow.permissions).toEqual({ contents: 'read' });
  });

  it('rehearses a matrix of shards, each installing bubblewrap and Chromium from apt, npm ci with the npm cache, and uploading its report', () => {
    const shard = jobs.shard!;
    expect(shard.strategy!.matrix.shard).toEqual([1, 2, 3]);
    expect(shard.container).toEqual({ image: 'debian:trixie', options: '--privileged' });
    const apt = shard.steps.find((s) => s.run?.includes('apt-get install'))!.run!;
    for (const pkg of ['bubblewrap', 'chromium', 'python3']) expect(apt).toMatch(new RegExp(`\\b${pkg}\\b`));
    expect(shard.steps.find((s) => s.uses?.startsWith('actions/setup-node@'))!.with).toMatchObject({ cache: 'npm' });
    expect(runStep(shard, 'npm ci').run).toMatch(/^npm ci\b/);
    expect(runStep(shard, 'npx packet rehearse').run).toBe('npx packet rehearse --shard ${{ matrix.shard }}/${{ strategy.job-total }} --report out/shards/shard-${{ matrix.shard }}.json');
    const upload = shard.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@') && String(s.with?.name).startsWith('rehearsal-shard-'))!;
    expect(upload.if).toBe('${{ !cancelled() }}');
    expect(String(upload.with!.path)).toMatch(/out\/shards\//);
  });

  it('merges the shards, reports with history and JUnit, and uploads the HTML report, even when a shard found defects', () => {
    const merge = jobs.merge!;
    expect(needs('merge')).toEqual(['shard']);
    expect(merge.if).toBe('${{ !cancelled() }}');
    expect(merge.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))!.with).toMatchObject({ pattern: 'rehearsal-shard-*', 'merge-multiple': true, path: 'out' });
    expect(runStep(merge, 'npx packet merge-reports').run).toBe('npx packet merge-reports out/shards/*.json --out out/rehearsal/report.json');
    expect(runStep(merge, 'npx packet report').run).toMatch(/--history out\/history .*--junit /);
    expect(merge.steps.some((s) => s.uses?.startsWith('actions/cache/restore@') && s.with?.path === 'out/history')).toBe(true);
    expect(merge.steps.some((s) => s.uses?.startsWith('actions/cache/save@') && s.with?.path === 'out/history')).toBe(true);
    expect(merge.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!.with).toMatchObject({ name: 'rehearsal-report', path: 'out/report/' });
  });

  it('builds the site on main only and deploys dist/ to GitHub Pages', () => {
    expect(jobs.site!.if).toBe("${{ github.ref == 'refs/heads/main' && github.event_name != 'pull_request' }}");
    expect(runStep(jobs.site!, 'npx packet build').run).toBe('npx packet build');
    expect(jobs.site!.steps.find((s) => s.uses?.startsWith('actions/upload-pages-artifact@'))!.with).toEqual({ path: 'dist' });
    expect(needs('deploy')).toEqual(['site']);
    expect(jobs.deploy!.permissions).toEqual({ pages: 'write', 'id-token': 'write' });
    expect(jobs.deploy!.steps.map((s) => s.uses)).toEqual(['actions/deploy-pages@v4']);
  });

  it('runs live models only when the endpoint, model list and key secrets are all set', () => {
    const check = jobs['live-check']!.steps[0]!;
    expect(check.env).toEqual({ ENDPOINT: '${{ secrets.LLM_ENDPOINT }}', MODELS: '${{ secrets.LLM_MODEL }}', KEY: '${{ secrets.LLM_API_KEY }}' });
    expect(check.run).toMatch(/-n "\$ENDPOINT" \] && \[ -n "\$MODELS" \] && \[ -n "\$KEY" \]/);
    expect(jobs.live!.if).toMatch(/needs\.live-check\.outputs\.enabled == 'true'/);
    expect(jobs.live!.env).toEqual({ LLM_ENDPOINT: '${{ secrets.LLM_ENDPOINT }}', LLM_MODEL: '${{ secrets.LLM_MODEL }}', OPENAI_API_KEY: '${{ secrets.LLM_API_KEY }}' });
    expect(runStep(jobs.live!, 'npx packet rehearse').run).not.toMatch(/secrets|OPENAI_API_KEY/);
  });

  it('runs the incremental mutation run on pull requests that touch the verdict core, failing under the target', () => {
    const mutation = jobs.mutation!;
    expect(mutation.if).toBe("${{ github.event_name == 'pull_request' }}");
    const changed = mutation.steps.find((s) => s.id === 'changed')!;
    // The paths that start the run, read from the step's own grep -E pattern.
    const pattern = new RegExp(/grep -qE '([^']+)'/.exec(changed.run!)![1]!);
    for (const p of ['src/judge/judge.ts', 'src/judge/score.ts', 'src/llm/budget.ts', 'tests/unit/judge/judge.test.ts', 'stryker.config.mjs', 'vitest.mutation.config.ts', 'reports/stryker-incremental.json']) {
      expect(pattern.test(p), p).toBe(true);
    }
    for (const p of ['README.md', 'src/site/format.ts', 'tests/e2e/lab.spec.ts', 'packets/red-log-gate/prompt.mdx']) expect(pattern.test(p), p).toBe(false);
    const run = runStep(mutation, 'npm run mutation');
    expect(run.run).toBe('npm run mutation && npm run mutation:report');
    expect(run.if).toBe("${{ steps.changed.outputs.run == 'true' }}");
  });
});
