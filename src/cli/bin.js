#!/usr/bin/env node
import module from 'node:module';
// As astro's own bin does: V8's code cache on disk (TypeScript's stripped output included) halves
// the time the commands' modules take to load (not in CI, where it is never reused). It is on before
// the CLI's first module is read: a static import would be loaded ahead of this line, uncached.
if (!process.env.CI) module.enableCompileCache?.();
const { internalErrorLine, runCli } = await import('./run-cli.ts');
const argv = process.argv.slice(2);
// An exception outside the command's own promise (a stray callback) still ends in one coded line, not a trace.
const crash = (err) => {
  process.stderr.write(internalErrorLine(err, argv, process.env.PACKET_KIT_ERROR_DIR));
  process.exit(70);
};
process.on('uncaughtException', crash).on('unhandledRejection', crash);
process.exitCode = await runCli(argv, { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s), cwd: process.cwd(), env: process.env, isTTY: Boolean(process.stdout.isTTY), now: () => new Date() });
