#!/usr/bin/env node
// The `ephemail` command as npm links it. npm links a workspace's bin while installing, before
// the `prepare` build has made dist/, so the link must point at a file that is committed: this
// one, which hands over to the built CLI, or says how to build it.
import { existsSync } from 'node:fs';
import process from 'node:process';

const cli = new URL('../dist/cli.js', import.meta.url);

if (existsSync(cli)) {
  await import(cli.href);
} else {
  process.stderr.write('ephemail: the CLI is not built yet (hosts/api/dist/cli.js is missing). Run `npm run build` first, from the repository root.\n');
  process.exitCode = 1;
}
