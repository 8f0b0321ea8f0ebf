import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/** The repository's rehearsal workflow: its text and its parsed form. */
export const WORKFLOW_FILE = path.resolve(import.meta.dirname, '../../.github/workflows/rehearse.yml');

export interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  id?: string;
}

export interface Job {
  name?: string;
  needs?: string | string[];
  if?: string;
  'runs-on': string;
  container?: { image: string; options?: string };
  strategy?: { matrix: Record<string, unknown[]> };
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  outputs?: Record<string, string>;
  steps: Step[];
}

export interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

export function readWorkflow(): { text: string; workflow: Workflow } {
  const text = readFileSync(WORKFLOW_FILE, 'utf8');
  return { text, workflow: parse(text) as Workflow };
}

/** The step of `job` whose `run` starts with `prefix` (after `npx `); throws when there is none. */
export function runStep(job: Job, prefix: string): Step & { run: string } {
  const step = job.steps.find((s) => s.run?.trim().startsWith(prefix));
  if (!step?.run) throw new Error(`no step runs "${prefix}..."`);
  return step as Step & { run: string };
}

/** A step's script with the expressions a matrix job would see filled in; throws on any other expression. */
export function expand(script: string, values: Record<string, string | number>): string {
  return script.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (m, expr: string) => {
    if (!(expr in values)) throw new Error(`the test does not know the value of ${m}`);
    return String(values[expr]);
  });
}
