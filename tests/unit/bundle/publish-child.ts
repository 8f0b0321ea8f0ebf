// Run by publish.test.ts in a child process: publish the staged pair of folders under <root>,
// and die by SIGKILL just before the named step (as a power cut or an OOM kill would end a build).
import path from 'node:path';
import { publish } from '../../../src/bundle/publish.ts';

const [root, killAt, tag] = process.argv.slice(2) as [string, string, string];
const dist = path.join(root, 'dist');
const reviewer = path.join(root, 'out', 'reviewer');
publish(
  [
    { target: dist, staging: path.join(root, `.dist-staging-${tag}`) },
    { target: reviewer, staging: path.join(root, 'out', `.reviewer-staging-${tag}`) },
  ],
  tag,
  {
    beforeStep(step) {
      if (step === killAt) process.kill(process.pid, 'SIGKILL');
    },
  },
);
