#!/usr/bin/env node
// conform adapter (protocol v1) for the published @deepseek-ai/dsh-* TypeScript
// harness. It re-implements nothing: every answer is produced by the upstream
// packages themselves, driven through their own seams (a real cordis Context,
// the real ToolRuntime registry, the real tool-fs-search and spill-policy
// plugins, the real retainers). Only the process boundary is stubbed: the
// `subprocess` service returns canned ripgrep output, the `codeRuntime`
// service returns the case's scripted run, and the `spillStore` service
// records what it is handed. See README.md.
//
// Protocol v1 (the loop, the handshake, bye, flushing, the answers) is the
// conform-adapter kit's (adapters/kits/node); this file registers one function
// per op. Anything upstream writes to stdout is diverted to stderr (the kit's
// guardStdout) so that stdout carries protocol lines only.

import { createRequire } from 'node:module';
import { serve, guardStdout, Skip } from 'conform-adapter';

// ---------------------------------------------------------------------------
// stdout discipline: divert everything but the answers, before upstream loads.
guardStdout();

const diag = (...parts) => {
  try {
    process.stderr.write(`dsh-node adapter: ${parts.map((p) => (typeof p === 'string' ? p : p instanceof Error ? (p.stack ?? p.message) : safeJson(p))).join(' ')}\n`);
  } catch {
    // stderr is best-effort
  }
};
function safeJson(v) {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

process.on('unhandledRejection', (reason) => diag('unhandled rejection (contained):', reason));
process.on('uncaughtException', (error) => diag('uncaught exception (contained):', error));

// Upstream modules are imported only after the stdout diversion is in place.
const require = createRequire(import.meta.url);
const { Context } = await import('@deepseek-ai/cordis');
const tools = await import('@deepseek-ai/dsh-tools');
const systemPrompt = await import('@deepseek-ai/dsh-system-prompt');
const fsSearch = await import('@deepseek-ai/dsh-tool-fs-search');
const retention = await import('@deepseek-ai/dsh-output-retention');
const spillPolicy = await import('@deepseek-ai/dsh-spill-policy');
const { SpillStore } = await import('@deepseek-ai/dsh-spill');
const { CodeRuntime } = await import('@deepseek-ai/dsh-code-runtime');

const toolsPkg = require('@deepseek-ai/dsh-tools/package.json');
const fsSearchPkg = require('@deepseek-ai/dsh-tool-fs-search/package.json');


function homepageOf(pkg) {
  const url = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  if (typeof pkg.homepage === 'string') return pkg.homepage;
  if (typeof url !== 'string') return 'https://www.npmjs.com/package/' + pkg.name;
  return url.replace(/^git\+/, '').replace(/\.git$/, '');
}

// ---------------------------------------------------------------------------
// Answers and error classes.

/** A throw by the harness itself (invalid config or budget): answered as {"error"}. */
class HarnessThrow extends Error {}
// A case the adapter cannot drive through the real code throws the kit's Skip: answered as {"skip"}.

// ---------------------------------------------------------------------------
// Per-call scripted state read by the stub services. Requests are handled one
// at a time, so one module-level slot is enough.

/**
 * @type {{
 *   rg?: {stdout: string, stderr: string, exitCode: number},
 *   spill?: {saved: boolean, locator?: string, retrievalHint?: string},
 *   program?: (request: any) => Promise<any>,
 *   saves: any[], spawns: any[], events: {type: string, data: any}[], subResults: {exec: any, result: any}[],
 * }}
 */
let current = freshState();
function freshState() {
  return { saves: [], spawns: [], events: [], subResults: [] };
}

// A session cwd that is no prefix of any case path: the real code makes
// absolute rg paths under the cwd workdir-relative.
const SESSION_CWD = '/nonexistent/conform-dsh-node-adapter/workspace';
const SESSION_ID = 'conform-session';

function makeAgent() {
  return {
    session: {
      header: { id: SESSION_ID, cwd: SESSION_CWD },
      append(type, data) {
        current.events.push({ type, data });
      },
    },
  };
}

let callCounter = 0;
const nextCallId = () => `conform-call-${++callCounter}`;

// ---------------------------------------------------------------------------
// Stub services.

/** `ctx.subprocess`: no process is started; the canned ripgrep run is returned. */
const stubSubprocess = {
  spawn(spec) {
    current.spawns.push(spec);
    const rg = current.rg;
    if (rg === undefined) throw new Error('conform adapter: no canned ripgrep output for this call');
    const reader = (text) => ({
      readFrom(fromByte) {
        const bytes = Buffer.byteLength(text, 'utf8');
        if (fromByte === 0) return { text, nextOffset: bytes, lossy: false };
        return { text: Buffer.from(text, 'utf8').subarray(fromByte).toString('utf8'), nextOffset: bytes, lossy: false };
      },
    });
    return {
      pid: 0,
      stdin: undefined,
      stdout: undefined,
      stderr: undefined,
      collected: { stdout: reader(rg.stdout), stderr: reader(rg.stderr) },
      done: Promise.resolve({ exitCode: rg.exitCode, signal: null }),
      terminate() {},
      async waitForExit() {
        return true;
      },
    };
  },
  async resolveExecutable(command) {
    return command;
  },
};

/** `ctx.codeRuntime`: runs the scripted program of the current case. */
class ScriptedCodeRuntime extends CodeRuntime {
  language = 'typescript';
  isolation = 'none';
  async run(request) {
    const program = current.program;
    if (program === undefined) return { logs: [], error: { kind: 'exception', message: 'conform adapter: no scripted program for this call' } };
    return await program(request);
  }
}

/** `ctx.spillStore`: records every save; fails it when the case says so. */
class RecordingSpillStore extends SpillStore {
  async saveText(input) {
    current.saves.push(input);
    const spill = current.spill;
    if (spill === undefined || spill.saved !== true) throw new Error('conform adapter: spill save failed (scripted)');
    // SpillRef's fields are strings; a locator / hint the case leaves out is "".
    return { locator: spill.locator ?? '', bytes: Buffer.byteLength(input.content, 'utf8'), retrievalHint: spill.retrievalHint ?? '' };
  }
}

// ---------------------------------------------------------------------------
// Contexts.

/** Stable cache key for JSON-ish config values (distinguishes "1" from 1, -0 and Infinity from null). */
function keyOf(value) {
  return JSON.stringify(value, (_k, v) => {
    if (typeof v === 'number') return `n:${Object.is(v, -0) ? '-0' : String(v)}`;
    if (typeof v === 'string') return `s:${v}`;
    return v;
  }) ?? 'undefined';
}

async function baseContext({ store }) {
  const ctx = new Context();
  await ctx.plugin(systemPrompt.SystemPrompt, {});
  await ctx.plugin(tools.ToolRuntime, { mode: 'both' });
  ctx.provide('subprocess');
  ctx.set('subprocess', stubSubprocess);
  await ctx.plugin(ScriptedCodeRuntime);
  if (store) await ctx.plugin(RecordingSpillStore);
  ctx.on('tools/result', (exec, result) => {
    if (exec.parent !== undefined) current.subResults.push({ exec, result });
  });
  return ctx;
}

/** Bounded caches: generated/fuzzed inputs may bring many distinct configs. */
const MAX_CACHED_CONTEXTS = 64;
function remember(map, key, entry) {
  if (map.size >= MAX_CACHED_CONTEXTS) map.delete(map.keys().next().value);
  map.set(key, entry);
}

const searchContexts = new Map();
/** One Context per distinct tool-fs-search config (and spill store presence). */
function searchContext(pluginConfig, store) {
  const key = keyOf([pluginConfig, store]);
  let entry = searchContexts.get(key);
  if (entry === undefined) {
    entry = (async () => {
      const ctx = await baseContext({ store });
      try {
        await ctx.plugin(fsSearch, pluginConfig);
      } catch (error) {
        return { error: String(error?.message ?? error) };
      }
      if (!ctx.tools.get('grep') || !ctx.tools.get('glob')) return { fault: 'tool-fs-search loaded but grep/glob are not registered' };
      // A case value ripgrep output cannot carry (one that breaks the tool's
      // output schema): the real body runs (argument checks, an empty search)
      // and its value is swapped for the case's, which the registry then
      // validates, renders and projects exactly as a body's return value.
      ctx.on('tools/execute', async (exec, next) => {
        const result = await next();
        if (current.bodyValue === undefined || exec.name !== current.bodyTool || result.isError) return result;
        return { isError: false, value: current.bodyValue };
      });
      return { ctx };
    })();
    remember(searchContexts, key, entry);
  }
  return entry.then((e) => {
    if (e.error !== undefined) throw new HarnessThrow(e.error);
    if (e.fault !== undefined) throw new Error(e.fault);
    return e.ctx;
  });
}

let codeContextPromise;
function codeContext() {
  codeContextPromise ??= baseContext({ store: false });
  return codeContextPromise;
}

const spillContexts = new Map();
/** One Context per spill-policy config, with a recording store loaded. */
function spillContext(policyConfig) {
  const key = keyOf(policyConfig);
  let entry = spillContexts.get(key);
  if (entry === undefined) {
    entry = (async () => {
      const ctx = await baseContext({ store: true });
      try {
        await ctx.plugin(spillPolicy, policyConfig);
      } catch (error) {
        return { error: String(error?.message ?? error) };
      }
      return { ctx };
    })();
    remember(spillContexts, key, entry);
  }
  return entry.then((e) => {
    if (e.error !== undefined) throw new HarnessThrow(e.error);
    return e.ctx;
  });
}

// ---------------------------------------------------------------------------
// Helpers.

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

function textOf(content) {
  if (!Array.isArray(content)) throw new Error(`result content is not an array: ${safeJson(content)}`);
  if (content.length !== 1 || content[0]?.type !== 'text') diag('note: result content is not a single text block:', content);
  return content.map((b) => (b?.type === 'text' ? b.text : '')).join('');
}

function resultProjection(result) {
  return { content: result.content, isError: result.isError, ...(result.meta !== undefined ? { meta: result.meta } : {}) };
}

function present(def, method, ...args) {
  if (typeof def?.[method] !== 'function') return null;
  return def[method](...args) ?? null;
}

function requireInput(cond, message) {
  if (!cond) throw new Error(`bad input: ${message}`);
}

async function execute(ctx, name, args) {
  return await ctx.tools.execute({ callId: nextCallId(), name, arguments: args, agent: makeAgent(), signal: new AbortController().signal });
}

/**
 * Run `name` as a Code Mode sub-call: the real run_code tool executes a
 * scripted program whose only statement calls the `tools.<name>` binding the
 * registry handed the runtime. Returns the sub-call's settle event and result.
 */
async function nestedCall(ctx, name, args) {
  const outcome = {};
  current.program = async (request) => {
    const ns = request.bindings.find((b) => b.global === 'tools');
    const fn = ns?.functions?.[name];
    if (typeof fn !== 'function') return { logs: [], error: { kind: 'exception', message: `conform adapter: tools.${name} is not bound` } };
    try {
      outcome.value = await fn(args);
    } catch (error) {
      outcome.thrown = error;
    }
    return { logs: [] };
  };
  const code = `return await tools.${name}(${safeJson(args)});`;
  const outer = await execute(ctx, 'run_code', { code, description: `conform: nested ${name} call` });
  const settled = current.events.filter((e) => e.type === 'tool/code-dispatch' && e.data?.name === name);
  if (settled.length !== 1) throw new Error(`nested ${name} call: expected one tool/code-dispatch event, got ${settled.length}; outer run_code result ${safeJson(outer)}`);
  const event = settled[0].data;
  const sub = current.subResults.find((s) => s.exec.callId === event.subCallId);
  return { event, result: sub?.result, outcome, outer };
}

// ---------------------------------------------------------------------------
// grep.result / glob.result

function grepRun(matches) {
  if (matches.length === 0) return { stdout: '', stderr: '', exitCode: 1 };
  const records = matches.map((m) => {
    requireInput(isObject(m), 'value.matches[] must be objects');
    // rg --json ends each line with its newline; a line ending in a bare CR is
    // given without one (rg prints the file's last line as-is), so that the
    // real parser's trailing-newline strip gives back the exact line.
    const text = typeof m.line === 'string' && !m.line.endsWith('\r') ? m.line + '\n' : m.line;
    return JSON.stringify({ type: 'match', data: { path: { text: m.path }, lines: { text }, line_number: m.lineNumber, absolute_offset: 0, submatches: [] } });
  });
  return { stdout: records.join('\n') + '\n', stderr: '', exitCode: 0 };
}

/** Whether ripgrep output can carry a case value: exactly the schema's members, of its types. */
function rgCarries(tool, value) {
  const exactly = (o, keys) => isObject(o) && Object.keys(o).length === keys.length && keys.every((k) => has(o, k));
  if (tool === 'glob') return exactly(value, ['root', 'paths']) && typeof value.root === 'string' && Array.isArray(value.paths) && value.paths.every((p) => typeof p === 'string');
  return exactly(value, ['matches']) && Array.isArray(value.matches) && value.matches.every((m) =>
    exactly(m, ['path', 'lineNumber', 'line']) && typeof m.path === 'string' && typeof m.line === 'string' && Number.isSafeInteger(m.lineNumber) && !Object.is(m.lineNumber, -0));
}

function globRun(paths) {
  if (paths.length === 0) return { stdout: '', stderr: '', exitCode: 1 };
  for (const p of paths) {
    requireInput(typeof p === 'string', 'value.paths[] must be strings');
    if (p === '' || p.includes('\n')) throw new Skip(`glob path ${safeJson(p)} cannot come out of ripgrep --files output (newline-separated lines, empty lines skipped)`);
  }
  return { stdout: paths.join('\n') + '\n', stderr: '', exitCode: 0 };
}

/** Arguments whose `path` makes the real glob compute `root` (no path for "."). */
function argsForRoot(args, root) {
  const out = { ...args };
  if (root === '.') delete out.path;
  else out.path = root;
  return out;
}

async function searchOp(tool, input) {
  requireInput(isObject(input), 'input must be an object');
  const config = input.config === undefined ? {} : input.config;
  requireInput(isObject(config), 'config must be an object');
  const pluginConfig = {};
  let rg = { stdout: '', stderr: '', exitCode: 1 };
  let expectedRoot;
  let bodyValue;
  if (tool === 'grep') {
    pluginConfig.sampleOverCapGlobResults = false; // required by the plugin schema; glob-only
    if (has(config, 'maxMatches')) pluginConfig.grepMaxMatches = config.maxMatches;
    if (has(config, 'maxLineBytes')) pluginConfig.grepMaxLineBytes = config.maxLineBytes;
    if (has(config, 'maxMetaBytes')) pluginConfig.searchMetaMaxBytes = config.maxMetaBytes;
    if (!rgCarries('grep', input.value)) bodyValue = input.value;
    else rg = grepRun(input.value.matches);
  } else {
    if (has(config, 'maxResults')) pluginConfig.globMaxResults = config.maxResults;
    if (has(config, 'maxMetaBytes')) pluginConfig.searchMetaMaxBytes = config.maxMetaBytes;
    if (has(config, 'sampleOverCap')) pluginConfig.sampleOverCapGlobResults = config.sampleOverCap;
    if (!rgCarries('glob', input.value)) bodyValue = input.value;
    else expectedRoot = input.value.root;
  }
  const hasSpill = input.spill !== undefined;
  if (hasSpill) requireInput(isObject(input.spill), 'spill must be an object');
  const ctx = await searchContext(pluginConfig, hasSpill);
  if (tool === 'glob' && bodyValue === undefined) rg = globRun(input.value.paths);

  const def = ctx.tools.get(tool);
  const args = input.args;
  const nested = input.nested === true;

  const attempt = async (callArgs) => {
    current = freshState();
    current.rg = rg;
    current.bodyTool = tool;
    current.bodyValue = bodyValue;
    if (hasSpill) current.spill = input.spill;
    if (!nested) {
      const r = await execute(ctx, tool, callArgs);
      return { spawned: current.spawns.length > 0, root: r.value?.root, r, content: r.content, isError: r.isError, sub: r };
    }
    const n = await nestedCall(ctx, tool, callArgs);
    return {
      spawned: current.spawns.length > 0,
      root: n.outcome.value?.root,
      content: n.event.content,
      isError: n.event.isError,
      sub: n.result,
    };
  };

  let run = await attempt(args);
  // glob's value.root comes out of the real code from the path argument. Once
  // the case's own arguments passed the real argument check (ripgrep was
  // started), re-run with the path that yields the case's root if they differ.
  if (tool === 'glob' && bodyValue === undefined && run.spawned && !run.isError && run.root !== expectedRoot && isObject(args)) {
    diag(`glob: the case's arguments give root ${safeJson(run.root)}; re-running with the path argument for root ${safeJson(expectedRoot)}`);
    run = await attempt(argsForRoot(args, expectedRoot));
    if (run.root !== expectedRoot) throw new Error(`glob: the real code gave root ${safeJson(run.root)}, expected ${safeJson(expectedRoot)}`);
  }

  const saves = current.saves.filter((s) => s?.source?.toolName === tool);
  if (saves.length > 1) diag(`note: ${saves.length} saves for one ${tool} call; reporting the first`);
  const meta = run.sub?.meta ?? null;
  return {
    isError: run.isError,
    content: textOf(run.content),
    error: run.sub?.error?.info ?? null,
    meta,
    view: present(def, 'presentResult', args, { content: run.content, isError: run.isError, ...(run.sub?.meta !== undefined ? { meta: run.sub.meta } : {}) }),
    // A Code Mode sub-call has no call card (ops.md: null for nested calls).
    callView: nested ? null : present(def, 'presentCall', args),
    spillText: saves.length > 0 ? saves[0].content : null,
  };
}

// ---------------------------------------------------------------------------
// search.present

async function searchPresentOp(input) {
  requireInput(isObject(input), 'input must be an object');
  requireInput(input.tool === 'grep' || input.tool === 'glob', 'tool must be "grep" or "glob"');
  requireInput(isObject(input.result), 'result must be an object');
  const result = { content: [{ type: 'text', text: '' }], isError: input.result.isError, ...(has(input.result, 'meta') ? { meta: input.result.meta } : {}) };
  if (!has(input, 'args')) {
    // No arguments: the exported presenters, which apply no argument check.
    const fn = input.tool === 'grep' ? fsSearch.presentGrepResult : fsSearch.presentGlobResult;
    return { view: fn(undefined, result) ?? null };
  }
  const ctx = await searchContext({ sampleOverCapGlobResults: false }, false);
  return { view: present(ctx.tools.get(input.tool), 'presentResult', input.args, result) };
}

// ---------------------------------------------------------------------------
// run_code.result

async function runCodeOp(input) {
  requireInput(isObject(input), 'input must be an object');
  requireInput(isObject(input.run), 'run must be an object');
  const ctx = await codeContext();
  const run = input.run;
  // The digest's {logs, result?} / {logs, error} is dsh-code-runtime's
  // CodeRunResult {logs, value?, error?}.
  const scripted = { logs: run.logs, ...(has(run, 'result') ? { value: run.result } : {}), ...(has(run, 'error') ? { error: run.error } : {}) };
  current = freshState();
  current.program = async () => scripted;
  const r = await execute(ctx, 'run_code', input.args);
  const def = ctx.tools.get('run_code');
  return {
    isError: r.isError,
    content: textOf(r.content),
    error: r.error?.info ?? null,
    meta: r.meta ?? null,
    view: present(def, 'presentResult', input.args, resultProjection(r)),
    callView: present(def, 'presentCall', input.args),
  };
}

// ---------------------------------------------------------------------------
// retain.items / retain.text

const decision = (d) => ({ kept: d.kept, truncated: d.truncated });

function retainItemsOp(input) {
  requireInput(isObject(input) && Array.isArray(input.items), 'items must be an array');
  let retainer;
  try {
    retainer = new retention.ItemRetainer(input.strategy);
  } catch (error) {
    throw new HarnessThrow(String(error?.message ?? error));
  }
  const pushes = input.items.map((item) => decision(retainer.push(item)));
  const r = retainer.finish();
  return { items: r.items, truncated: r.truncated, seen: r.seen, kept: r.kept, omitted: r.omitted, pushes };
}

function retainTextOp(input) {
  requireInput(isObject(input), 'input must be an object');
  let chunks;
  if (has(input, 'chunksBase64')) {
    requireInput(Array.isArray(input.chunksBase64), 'chunksBase64 must be an array');
    chunks = input.chunksBase64.map((b64) => new Uint8Array(Buffer.from(b64, 'base64')));
  } else {
    requireInput(Array.isArray(input.chunks), 'chunks must be an array');
    chunks = input.chunks;
  }
  let retainer;
  try {
    retainer = new retention.TextRetainer(input.strategy);
  } catch (error) {
    throw new HarnessThrow(String(error?.message ?? error));
  }
  const pushes = chunks.map((chunk) => decision(retainer.push(chunk)));
  const r = retainer.finish();
  return { text: r.text, truncated: r.truncated, omittedBytes: r.omittedBytes, pushes };
}

// ---------------------------------------------------------------------------
// spill.preview

function sameBlocks(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

async function spillPreviewOp(input) {
  requireInput(isObject(input), 'input must be an object');
  requireInput(typeof input.text === 'string' || Array.isArray(input.blocks), 'one of text / blocks is required');
  const blocks = typeof input.text === 'string' ? [{ type: 'text', text: input.text }] : input.blocks;
  const toolName = has(input, 'toolName') ? input.toolName : 'tool';
  const arm = has(input, 'arm') ? input.arm : 'result';
  requireInput(typeof toolName === 'string' && toolName.length > 0, 'toolName must be a non-empty string');
  requireInput(arm === 'result' || arm === 'dispatch', 'arm must be "result" or "dispatch"');
  const policyConfig = has(input, 'maxInlineBytes') ? { maxInlineBytes: input.maxInlineBytes } : {};
  const ctx = await spillContext(policyConfig);

  const scriptStore = () => {
    current = freshState();
    current.spill = isObject(input.ref) ? { saved: true, locator: input.ref.locator, retrievalHint: input.ref.retrievalHint } : { saved: false };
  };
  const saveOf = (pred) => {
    const saves = current.saves.filter(pred);
    if (saves.length > 1) diag(`note: ${saves.length} matching saves; reporting the first`);
    const s = saves[0];
    return s === undefined ? null : { label: s.source.label, suggestedName: s.suggestedName, text: s.content };
  };

  if (toolName === tools.RUN_CODE_NAME) {
    // run_code is the registry's reserved transport: no test tool can take its
    // name. Its result arm is driven through the real run_code tool whose
    // program completes with the text (a string value renders verbatim).
    if (arm === 'dispatch') throw new Skip('a run_code sub-call cannot exist: the run_code bindings never include run_code, so the dispatch arm cannot be driven for toolName "run_code"');
    if (typeof input.text !== 'string') throw new Skip('run_code renders one text block; a multi-block / non-text run_code result cannot be produced by the real run_code tool');
    if (input.text === '') throw new Skip('an empty run_code completion renders "(run_code completed with no output)", so an empty text cannot be produced by the real run_code tool');
    scriptStore();
    current.program = async () => ({ logs: [], value: input.text });
    const r = await execute(ctx, tools.RUN_CODE_NAME, { code: 'return text;', description: 'conform: spill preview' });
    if (r.isError) throw new Error(`run_code failed unexpectedly: ${safeJson(r)}`);
    return { content: sameBlocks(r.content, blocks) ? null : textOf(r.content), save: saveOf((s) => s.source.toolName === toolName) };
  }

  // A registered test tool named toolName whose content is the case's blocks
  // (dsh-tools' own content-fixture helper: the value is the content array).
  const definition = tools.defineContentToolFixture({
    name: toolName,
    description: `conform test tool ${toolName}`,
    parameters: {},
    async execute() {
      return structuredClone(blocks);
    },
  });
  let dispose;
  try {
    dispose = ctx.tools.register(definition);
  } catch (error) {
    throw new Skip(`the registry refuses a test tool named ${safeJson(toolName)}: ${String(error?.message ?? error)}`);
  }
  try {
    scriptStore();
    if (arm === 'result') {
      const r = await execute(ctx, toolName, {});
      if (r.isError) throw new Error(`test tool failed unexpectedly: ${safeJson(r)}`);
      return { content: sameBlocks(r.content, blocks) ? null : textOf(r.content), save: saveOf((s) => s.source.toolName === toolName) };
    }
    // dispatch arm: the tool runs as a run_code sub-call; the policy bounds the
    // durable tool/code-dispatch log copy.
    const n = await nestedCall(ctx, toolName, {});
    if (n.event.isError) throw new Error(`test tool sub-call failed unexpectedly: ${safeJson(n.event)}`);
    const subCallId = n.event.subCallId;
    return {
      content: sameBlocks(n.event.content, blocks) ? null : textOf(n.event.content),
      save: saveOf((s) => s.source.callId === subCallId),
    };
  } finally {
    dispose();
  }
}

// ---------------------------------------------------------------------------
// Serving: one function per op, in the handshake's order. Each case starts
// from fresh scripted state; a thrown HarnessThrow is the harness's error
// answer, any other throw the adapter's own failure ("adapter: …").

const perCase = (fn) => async (input) => {
  try {
    return await fn(input);
  } finally {
    current = freshState();
  }
};

diag(`ready: ${fsSearchPkg.name}@${fsSearchPkg.version}, ${toolsPkg.name}@${toolsPkg.version}`);

await serve({
  implementation: {
    name: 'dsh (@deepseek-ai/dsh-tools + dsh-tool-fs-search + dsh-spill-policy + dsh-output-retention)',
    version: toolsPkg.version,
    language: 'typescript',
    homepage: homepageOf(toolsPkg),
  },
  ops: {
    'grep.result': perCase((input) => searchOp('grep', input)),
    'glob.result': perCase((input) => searchOp('glob', input)),
    'search.present': perCase(searchPresentOp),
    'run_code.result': perCase(runCodeOp),
    'retain.items': perCase(retainItemsOp),
    'retain.text': perCase(retainTextOp),
    'spill.preview': perCase(spillPreviewOp),
  },
  errorMessage(error, { id }) {
    if (error instanceof HarnessThrow) return error.message;
    diag(`case ${safeJson(id)}: adapter failure:`, error);
    return `adapter: ${String(error?.message ?? error)}`;
  },
});
