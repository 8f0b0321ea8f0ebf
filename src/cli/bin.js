#!/usr/bin/env node
import module from 'node:module';
import { internalErrorLine, runCli } from './run-cli.ts';
// As astro's own bin does: V8's code cache on disk halves the time the commands' modules take to load (not in CI, where it is never reused).
if (!process.env.CI) module.enableCompileCache?.();
const argv = process.argv.slice(2);
// An exception outside the command's own promise (a stray callback) still ends in one coded line, not a trace.
const crash = (err) => {
  process.stderr.write(internalErrorLine(err, argv, process.env.PACKET_KIT_ERROR_DIR));
  process.exit(70);
};
process.on('uncaughtException', crash).on('unhandledRejection', crash);
process.exitCode = await runCli(argv, { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s), cwd: process.cwd(), env: process.env, isTTY: Boolean(process.stdout.isTTY), now: () => new Date() });
