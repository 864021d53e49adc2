// native-cli.mjs — runs the native fusion-plan CLI (tools/build.sh native) on graph text, for parity tests.
//
// runCli(graphText, options) feeds the text on standard input and maps options to the CLI's flags
// (broadcast: false -> --no-broadcast, resident_sources: true -> --resident-sources, strategy -> --strategy,
// hardware -> --hardware, rules: {name: value} -> --rule name=VALUE each, VALUE as JSON unless a string, dims:
// {N: 8} -> --dim N=8 each). It returns { status, stdout, stderr }. planWithCli(graphText, options) returns the
// plan JSON, parsed, and throws with the CLI's standard error when it exits with another status than 0;
// sweepWithCli(graphText, options, 'N=1:4096') does the same with --sweep (the rows, parsed). The binary is
// FUSION_PLAN, else build/native/cli/fusion-plan; both throw, naming the build command, when it is missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CLI_PATH =
  process.env.FUSION_PLAN ?? fileURLToPath(new URL('../../build/native/cli/fusion-plan', import.meta.url));

function cliFlags(options = {}) {
  const flags = [];
  if (options.broadcast === false) flags.push('--no-broadcast');
  if (options.resident_sources === true) flags.push('--resident-sources');
  if (options.strategy !== undefined) flags.push('--strategy', options.strategy);
  if (options.hardware !== undefined) flags.push('--hardware', options.hardware);
  for (const [rule, value] of Object.entries(options.rules ?? {}))
    flags.push('--rule', `${rule}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  for (const [name, value] of Object.entries(options.dims ?? {})) flags.push('--dim', `${name}=${value}`);
  return flags;
}

export function runCli(graphText, options = {}, extra = []) {
  if (!existsSync(CLI_PATH)) throw new Error(`no ${CLI_PATH}: run \`bash tools/build.sh native\` first`);
  const run = spawnSync(CLI_PATH, [...cliFlags(options), ...extra, '-'], { input: graphText, encoding: 'utf8' });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

export function planWithCli(graphText, options = {}) {
  const run = runCli(graphText, options);
  if (run.status !== 0) throw new Error(`fusion-plan exited with ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

export function sweepWithCli(graphText, options, sweep) {
  const run = runCli(graphText, options, ['--sweep', sweep]);
  if (run.status !== 0) throw new Error(`fusion-plan --sweep exited with ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}
