// native-cli.mjs — runs the native fusion-plan CLI (tools/build.sh native) on graph text, for parity tests.
//
// runCli(graphText, options) feeds the text on standard input and maps options to the CLI's flags
// (broadcast: false -> --no-broadcast, resident_sources: true -> --resident-sources, strategy -> --strategy).
// It returns { status, stdout, stderr }. The binary is FUSION_PLAN, or the first fusion-plan found in
// build/native; CLI_PATH is null when there is none (the tests then fail with that message).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CANDIDATES = ['build/native/cli/fusion-plan', 'build/native/fusion-plan', 'build/native/bin/fusion-plan'];

export const CLI_PATH = process.env.FUSION_PLAN ??
  CANDIDATES.map((path) => fileURLToPath(new URL(`../../${path}`, import.meta.url))).find(existsSync) ?? null;

export function cliFlags(options = {}) {
  const flags = [];
  if (options.broadcast === false) flags.push('--no-broadcast');
  if (options.resident_sources === true) flags.push('--resident-sources');
  if (options.strategy !== undefined) flags.push('--strategy', options.strategy);
  return flags;
}

export function runCli(graphText, options = {}) {
  if (!CLI_PATH) throw new Error('no native fusion-plan binary: run `bash tools/build.sh native` first');
  const run = spawnSync(CLI_PATH, [...cliFlags(options), '-'], { input: graphText, encoding: 'utf8' });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
