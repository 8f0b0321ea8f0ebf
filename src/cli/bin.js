#!/usr/bin/env node
import module from 'node:module';
import { runCli } from './run-cli.ts';
// As astro's own bin does: V8's code cache on disk halves the time the commands' modules take to load (not in CI, where it is never reused).
if (!process.env.CI) module.enableCompileCache?.();
process.exitCode = await runCli(process.argv.slice(2), { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s), cwd: process.cwd(), env: process.env, isTTY: Boolean(process.stdout.isTTY), now: () => new Date() });
