#!/usr/bin/env node
import { runCli } from './run-cli.ts';
process.exitCode = await runCli(process.argv.slice(2), { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s), cwd: process.cwd(), env: process.env, isTTY: Boolean(process.stdout.isTTY), now: () => new Date() });
