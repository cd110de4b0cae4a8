// conform's cases as node:test tests. conformTests runs
// `conform run --format json` once and registers one test per case; conform
// is the only judge: a test fails exactly when conform's verdict says so, and
// its message is conform's own detail (diffs, message, stderr, reproduce).

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { stringify } from './json.js';

const MODULE = 'github.com/dsh-conform/conform';

/**
 * The conform command: the `conform` option, else $CONFORM_BIN, else
 * `conform` on PATH, else `go run ./cmd/conform` in the conform checkout
 * around the working directory or this kit.
 * @param {{conform?: string | string[], cwd?: string}} [options]
 * @returns {{argv: string[], cwd?: string, from: string}}
 */
export function findConform(options = {}) {
  if (options.conform !== undefined) {
    const argv = Array.isArray(options.conform) ? options.conform : [options.conform];
    if (argv.length === 0 || argv.some((a) => typeof a !== 'string' || a === '')) throw new TypeError('conformTests: conform must be a path or a non-empty argv');
    return { argv, from: 'the conform option' };
  }
  const env = process.env.CONFORM_BIN;
  if (env !== undefined && env !== '') return { argv: [env], from: '$CONFORM_BIN' };
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'conform');
    try {
      if (statSync(candidate).isFile()) return { argv: [candidate], from: 'PATH' };
    } catch {
      // not there
    }
  }
  for (const start of [resolve(options.cwd ?? process.cwd()), dirname(fileURLToPath(import.meta.url))]) {
    const root = checkout(start);
    if (root !== undefined) return { argv: ['go', 'run', './cmd/conform'], cwd: root, from: `the conform checkout ${root}` };
  }
  throw new Error('conformTests: conform not found: pass {conform: "/path/to/conform"}, set CONFORM_BIN, put conform on PATH (go install github.com/dsh-conform/conform/cmd/conform@latest), or run inside a conform checkout');
}

/** @type {Map<string, Promise<string>>} */
const built = new Map();
/** `go build` of conform in the checkout `root`, once per process; the binary's path. */
function buildConform(/** @type {string} */ root) {
  let p = built.get(root);
  if (p === undefined) {
    p = (async () => {
      const dir = await mkdtemp(join(tmpdir(), 'conform-adapter-'));
      const bin = join(dir, 'conform');
      const child = spawn('go', ['build', '-o', bin, './cmd/conform'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
      const [status] = await exited(child, `go build in ${root}`);
      if (status !== 0) throw new Error(`conformTests: go build ./cmd/conform in ${root} failed (exit status ${status})`);
      return bin;
    })();
    built.set(root, p);
  }
  return p;
}

/** @param {import('node:child_process').ChildProcess} child @param {string} what @returns {Promise<[number | null, string | null]>} */
function exited(child, what) {
  return new Promise((res, rej) => {
    child.on('error', (e) => rej(new Error(`conformTests: cannot start ${what}: ${e.message}`)));
    child.on('close', (code, sig) => res([code, sig]));
  });
}

/** The nearest directory at or above `dir` whose go.mod is conform's module. */
function checkout(/** @type {string} */ dir) {
  for (let d = dir; ; d = dirname(d)) {
    const mod = join(d, 'go.mod');
    if (existsSync(mod) && new RegExp(`^module\\s+${MODULE.replaceAll('.', '\\.')}\\s*$`, 'm').test(readFileSync(mod, 'utf8'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/**
 * The argv that runs conform (findConform's, with a checkout's conform built once).
 * @param {{conform?: string | string[], cwd?: string}} [options]
 * @returns {Promise<string[]>}
 */
export async function conformCommand(options = {}) {
  const found = findConform(options);
  return found.cwd === undefined ? found.argv : [await buildConform(found.cwd)];
}

/**
 * Runs conform once and returns its parsed JSON report, with the exit status and stderr.
 * @param {import('./testing.js').ConformTestsOptions} options
 * @returns {Promise<{report: any, status: number | null, signal: string | null, stderr: string, argv: string[]}>}
 */
export async function runConform(options) {
  const found = findConform(options);
  // `go run ./cmd/conform` is built once in the checkout and run in the caller's directory.
  const argv = [...(await conformCommand(options)), 'run', '--format', 'json'];
  if (options.jobs !== undefined) argv.push('--jobs', String(options.jobs));
  if (options.exec) argv.push('--exec');
  if (options.baseline !== undefined) argv.push('--baseline', resolve(options.cwd ?? '.', options.baseline));
  argv.push(...(options.args ?? []));
  if (typeof options.adapter === 'string') {
    if (options.adapter.trim() === '') throw new TypeError('conformTests: adapter must not be empty');
    argv.push('--adapter', options.adapter);
  } else if (Array.isArray(options.adapter) && options.adapter.length > 0) argv.push('--', ...options.adapter);
  else throw new TypeError("conformTests: adapter must be a command string ('node my-adapter.mjs') or an argv array");
  // With `go run` in the checkout, the adapter still runs in the caller's directory.
  const cwd = options.cwd ?? process.cwd();
  const child = spawn(argv[0], argv.slice(1), {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env ?? process.env,
  });
  /** @type {Buffer[]} */
  const out = [];
  /** @type {Buffer[]} */
  const err = [];
  child.stdout.on('data', (b) => out.push(b));
  child.stderr.on('data', (b) => err.push(b));
  const [status, signal] = await exited(child, `${argv[0]} (${found.from})`);
  const stdout = Buffer.concat(out).toString('utf8');
  const stderr = Buffer.concat(err).toString('utf8');
  let report;
  try {
    report = JSON.parse(stdout);
  } catch (e) {
    report = undefined;
  }
  return { report, status, signal, stderr, argv };
}

/**
 * Registers conform's cases as node:test tests, inside a suite named after
 * the run; returns the suite's promise.
 * @param {import('./testing.js').ConformTestsOptions} options
 */
export function conformTests(options) {
  if (typeof options !== 'object' || options === null) throw new TypeError('conformTests: options must be an object');
  const name = options.name ?? `conform run ${Array.isArray(options.adapter) ? options.adapter.join(' ') : options.adapter}`;
  return describe(name, async () => {
    const run = await runConform(options);
    const problem = runProblem(run);
    if (problem !== undefined) {
      test('conform run', () => {
        throw failure(problem);
      });
      return;
    }
    const report = run.report;
    for (const c of report.cases) {
      const id = String(c.id);
      switch (c.verdict) {
        case 'pass':
          test(id, () => {});
          break;
        case 'skipped':
        case 'unsupported':
          test(id, { skip: `${c.verdict}: ${c.message ?? ''}` }, () => {});
          break;
        case 'xfail':
          test(id, { todo: `xfail (baseline: ${c.baseline ?? ''})` }, () => {
            throw failure(caseDetail(c));
          });
          break;
        default:
          // fail, error, timeout, crash, xpass and any verdict added later
          test(id, () => {
            throw failure(caseDetail(c));
          });
      }
    }
    test('conform: the run is conformant', () => {
      const reasons = Array.isArray(report.nonconformant) ? report.nonconformant : [];
      if (reasons.length > 0 || run.status !== 0) {
        throw failure(['NONCONFORMANT:', ...reasons.map((/** @type {any} */ r) => `  - ${r.message ?? stringifyShort(r)}`), `conform exited with status ${run.status}`, tail(run.stderr)].join('\n'));
      }
    });
  });
}

/** Why the run's report cannot be read as a complete run, or undefined. */
function runProblem(/** @type {Awaited<ReturnType<typeof runConform>>} */ run) {
  const cmd = `conform command: ${run.argv.join(' ')}`;
  const r = run.report;
  if (typeof r !== 'object' || r === null || Array.isArray(r)) {
    return [`conform printed no JSON report (exit status ${run.status ?? run.signal})`, cmd, tail(run.stderr)].join('\n');
  }
  if (r.format !== 'conform-run') return [`not a conform run report (format ${stringifyShort(r.format)})`, cmd].join('\n');
  if (r.fault !== undefined && r.fault !== null) {
    return [`conform could not run the cases (${r.fault.kind}): ${r.fault.message}`, r.fault.stderr ? `adapter stderr:\n${r.fault.stderr}` : '', cmd].filter(Boolean).join('\n');
  }
  if (!Array.isArray(r.cases)) return ['the report has no cases array', cmd].join('\n');
  if (r.complete === false || r.result === 'interrupted') return [`conform reports the run as incomplete (${r.complete === false ? 'complete: false' : 'result: interrupted'}): not every case ran`, cmd, tail(run.stderr)].join('\n');
  if (run.status === null || run.status > 1) return [`conform exited with ${run.status ?? run.signal}`, cmd, tail(run.stderr)].join('\n');
  return undefined;
}

/** conform's detail of a case: verdict, broken requirements, diffs, message, stderr, fixture, input, reproduce. */
function caseDetail(/** @type {any} */ c) {
  const lines = [`${String(c.verdict).toUpperCase()} ${c.id}`];
  if (Array.isArray(c.broken) && c.broken.length > 0) lines.push(`  fails ${c.broken.join(', ')}`);
  if (c.baseline !== undefined) lines.push(`  baseline: ${c.baseline}`);
  if (c.file !== undefined) lines.push(`  fixture: ${c.file}`);
  if (c.message !== undefined) lines.push(`  message: ${c.message}`);
  for (const d of Array.isArray(c.diffs) ? c.diffs : []) {
    const reqs = Array.isArray(d.requirements) && d.requirements.length > 0 ? d.requirements.join(', ') : 'no requirement of its own';
    lines.push(`  - ${d.field} [${d.comparator}] ${d.path ?? ''} (${reqs}): ${d.message}`);
    if (d.wantExcerpt !== undefined) lines.push(`      want: ${d.wantExcerpt}`);
    if (d.gotExcerpt !== undefined) lines.push(`      got:  ${d.gotExcerpt}`);
    if (Object.hasOwn(d, 'want')) lines.push(`      want (whole): ${stringifyShort(d.want)}`);
    if (Object.hasOwn(d, 'got')) lines.push(`      got (whole):  ${stringifyShort(d.got)}`);
  }
  if (c.stderr) lines.push(`  adapter stderr:\n${indent(c.stderr)}`);
  if (Object.hasOwn(c, 'input')) lines.push(`  input: ${stringifyShort(c.input)}`);
  if (c.reproduce !== undefined) lines.push(`  reproduce: ${c.reproduce}`);
  return lines.join('\n');
}

const SHORT = 2000;
function stringifyShort(/** @type {unknown} */ v) {
  let s;
  try {
    s = stringify(v) ?? 'undefined'; // want/got may nest 100,000 deep
  } catch {
    s = String(v);
  }
  return s.length > SHORT ? `${s.slice(0, SHORT)}… (${s.length} characters)` : s;
}

function indent(/** @type {string} */ s) {
  return s.replace(/\n$/, '').split('\n').map((l) => `    ${l}`).join('\n');
}

function tail(/** @type {string} */ s) {
  const t = s.length > 4096 ? s.slice(-4096) : s;
  return t === '' ? '' : `conform stderr:\n${indent(t)}`;
}

/** An Error whose message is the detail and whose stack is nothing more, so the runner prints conform's words. */
function failure(/** @type {string} */ message) {
  const e = new Error(message);
  e.stack = message;
  return e;
}
