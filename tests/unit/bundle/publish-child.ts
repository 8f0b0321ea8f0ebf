// Run by publish.test.ts in a child process: publish the staged pair of folders under <root>,
// and die by SIGKILL just before the named step (as a power cut or an OOM kill would end a build);
// "none" publishes to the end. With three more arguments, the publish stops just before the step
// <nestAt> and, while it is stopped there, a second publish of the pair staged with <nestTag>
// runs in its own process (killed before <nestKillAt>, or "none"). Exits 3 when the publish is
// refused because another holds the lock.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { publish, PublishBusyError } from '../../../src/bundle/publish.ts';

const [root, killAt, tag, nestAt, nestTag, nestKillAt] = process.argv.slice(2) as [string, string, string, string?, string?, string?];
const dist = path.join(root, 'dist');
const reviewer = path.join(root, 'out', 'reviewer');
try {
  publish(
    [
      { target: dist, staging: path.join(root, `.dist-staging-${tag}`) },
      { target: reviewer, staging: path.join(root, 'out', `.reviewer-staging-${tag}`) },
    ],
    tag,
    {
      beforeStep(step) {
        if (nestAt && step === nestAt) {
          const nested = spawnSync(process.execPath, [fileURLToPath(import.meta.url), root, nestKillAt!, nestTag!], { stdio: ['ignore', 'inherit', 'inherit'] });
          process.stdout.write(`nested: ${nested.signal ?? nested.status}\n`);
        }
        if (step === killAt) process.kill(process.pid, 'SIGKILL');
      },
    },
  );
} catch (err) {
  if (!(err instanceof PublishBusyError)) throw err;
  process.stdout.write(`busy: ${err.pid}\n`);
  process.exitCode = 3;
}
