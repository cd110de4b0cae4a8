// serve() over in-memory streams (the protocol's lines) and as a process
// (exit status, exec mode, the stdout guard).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serve, Skip, JsonNumber } from 'conform-adapter';

const KIT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Serves `ops` over the request bytes (written as given chunks) and returns the answer lines.
 * @param {any} ops @param {(string | Buffer)[]} chunks @param {any} [more]
 */
async function session(ops, chunks, more = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  /** @type {Buffer[]} */
  const out = [];
  /** @type {Buffer[]} */
  const err = [];
  stdout.on('data', (b) => out.push(b));
  stderr.on('data', (b) => err.push(b));
  const served = serve({ implementation: { name: 'test', version: '1', language: 'javascript' }, ops, stdin, stdout, stderr, ...more });
  for (const c of chunks) stdin.write(c);
  stdin.end();
  await served;
  const text = Buffer.concat(out).toString('utf8');
  assert.ok(text === '' || text.endsWith('\n'), 'every answer ends in \\n');
  return { lines: text.split('\n').slice(0, -1), stderr: Buffer.concat(err).toString('utf8') };
}

const hello = '{"cmd":"hello","protocol":1}\n';
const run = (/** @type {string} */ id, /** @type {string} */ op, /** @type {string} */ input) => `{"cmd":"run","id":${JSON.stringify(id)},"op":"${op}","input":${input}}\n`;

test('the handshake lists the registered ops, in their order', async () => {
  const { lines } = await session({ 'spill.preview': () => ({}), 'grep.result': () => ({}) }, [hello]);
  assert.deepEqual(lines, ['{"protocol":1,"implementation":{"name":"test","version":"1","language":"javascript","homepage":""},"ops":["spill.preview","grep.result"]}']);
});

test('answers: output, thrown error, Skip, unlisted op, in request order', async () => {
  const ops = {
    'retain.items': async (/** @type {any} */ input) => {
      await new Promise((r) => setTimeout(r, input.wait));
      return { got: input.v };
    },
    'retain.text': () => {
      throw new Error('maxBytes must be a non-negative integer');
    },
    'spill.preview': () => {
      throw new Skip('no spill store');
    },
    'search.present': () => {
      throw 'a string';
    },
  };
  const { lines } = await session(ops, [
    hello,
    run('a/1', 'retain.items', '{"wait":30,"v":1}'),
    run('a/2', 'retain.items', '{"wait":0,"v":"\\ud800"}'),
    run('a/3', 'retain.text', '{}'),
    run('a/4', 'spill.preview', '{}'),
    run('a/5', 'grep.result', '{}'),
    run('a/6', 'search.present', '{}'),
    '{"cmd":"run","id":"a/7","op":["retain.items"],"input":{}}\n',
  ]);
  assert.deepEqual(lines.slice(1), [
    '{"id":"a/1","output":{"got":1}}',
    '{"id":"a/2","output":{"got":"\\ud800"}}',
    '{"id":"a/3","error":{"message":"maxBytes must be a non-negative integer"}}',
    '{"id":"a/4","skip":"no spill store"}',
    '{"id":"a/5","skip":"op \\"grep.result\\" is not implemented by this adapter"}',
    '{"id":"a/6","error":{"message":"a string"}}',
    '{"id":"a/7","skip":"op [\\"retain.items\\"] is not implemented by this adapter"}',
  ]);
});

test('an output that is no object, or cannot be JSON, is the case error, named', async () => {
  const { lines, stderr } = await session(
    { 'retain.items': (/** @type {any} */ i) => i.v, 'retain.text': () => ({ n: 1n }) },
    [run('b/1', 'retain.items', '{"v":[1]}'), run('b/2', 'retain.items', '{"v":null}'), run('b/3', 'retain.text', '{}')],
  );
  assert.deepEqual(lines, [
    '{"id":"b/1","error":{"message":"adapter: the retain.items function returned an array, not an output object"}}',
    '{"id":"b/2","error":{"message":"adapter: the retain.items function returned null, not an output object"}}',
    '{"id":"b/3","error":{"message":"adapter: answer not serializable: Do not know how to serialize a BigInt"}}',
  ]);
  assert.match(stderr, /returned an array/);
});

test('bye ends the session: later lines are not answered', async () => {
  let calls = 0;
  const { lines } = await session({ 'retain.items': () => ({ n: ++calls }) }, [run('c/1', 'retain.items', '{}'), '{"cmd":"bye"}\n', run('c/2', 'retain.items', '{}')]);
  assert.deepEqual(lines, ['{"id":"c/1","output":{"n":1}}']);
  assert.equal(calls, 1);
});

test('bye ends the session while stdin is still open', { timeout: 10_000 }, async () => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const served = serve({ implementation: { name: 'open' }, ops: {}, stdin, stdout, stderr: new PassThrough() });
  stdin.write(hello + '{"cmd":"bye"}\n'); // and no end of stdin: conform closes it, a test harness may not
  await served;
  assert.match(String(stdout.read()), /^\{"protocol":1,/);
});

test('malformed requests: not JSON, not an object, not UTF-8, unknown cmd; CRLF and split lines are read', async () => {
  const line = run('d/1', 'retain.items', '{"v":"' + 'x'.repeat(100_000) + '"}').replace('\n', '\r\n');
  const { lines, stderr } = await session({ 'retain.items': (/** @type {any} */ i) => ({ len: i.v.length }) }, [
    'nope\n',
    '[1]\n',
    Buffer.from([0x7b, 0xff, 0x7d, 0x0a]),
    '{"cmd":"jump","id":"x"}\n',
    '\n',
    line.slice(0, 50_000),
    line.slice(50_000),
    run('d/2', 'retain.items', '{"v":"no newline at the end"}').trimEnd(),
  ]);
  assert.equal(lines.length, 6);
  assert.match(lines[0], /^\{"id":null,"error":\{"message":"adapter: request is not JSON: /);
  assert.equal(lines[1], '{"id":null,"error":{"message":"adapter: request is not a JSON object"}}');
  assert.equal(lines[2], '{"id":null,"error":{"message":"adapter: request is not UTF-8"}}');
  assert.equal(lines[3], '{"id":"x","error":{"message":"adapter: unknown cmd \\"jump\\""}}');
  assert.equal(lines[4], '{"id":"d/1","output":{"len":100000}}');
  assert.equal(lines[5], '{"id":"d/2","output":{"len":21}}');
  assert.match(stderr, /unknown cmd/);
});

test('lossless input: lexemes kept; ctx.raw is the input as sent', async () => {
  const input = '{"a":-0,"b":1e2,"c":9007199254740993,"a":1e400,"d":[0.10]}';
  const seen = /** @type {any[]} */ ([]);
  const { lines } = await session(
    {
      'run_code.result': (/** @type {any} */ i, /** @type {any} */ ctx) => {
        seen.push(i, ctx.raw, ctx.id, ctx.op);
        return { echo: i };
      },
    },
    [run('e/1', 'run_code.result', input)],
    { input: 'lossless' },
  );
  assert.ok(seen[0].a instanceof JsonNumber);
  assert.equal(seen[0].a.lexeme, '1e400');
  assert.equal(seen[1], input);
  assert.deepEqual(seen.slice(2), ['e/1', 'run_code.result']);
  assert.equal(lines[0], '{"id":"e/1","output":{"echo":{"a":1e400,"b":1e2,"c":9007199254740993,"d":[0.10]}}}');
});

test('a 100,000-deep input and output pass through', async () => {
  const deep = '['.repeat(100_000) + ']'.repeat(100_000);
  const { lines } = await session({ 'retain.items': (/** @type {any} */ i) => ({ items: i.items }) }, [run('f/1', 'retain.items', `{"items":${deep}}`)]);
  assert.equal(lines[0], `{"id":"f/1","output":{"items":${deep}}}`);
});

test('serve resolves only once a slow stdout has taken every answer', async () => {
  /** @type {string[]} */
  const taken = [];
  const stdout = new Writable({
    highWaterMark: 8,
    write(chunk, _enc, cb) {
      setTimeout(() => {
        taken.push(chunk.toString());
        cb();
      }, 5);
    },
  });
  const stdin = new PassThrough();
  const served = serve({ implementation: { name: 'slow' }, ops: { 'retain.items': () => ({ ok: 'x'.repeat(100) }) }, stdin, stdout, stderr: new PassThrough() });
  for (let i = 0; i < 5; i++) stdin.write(run(`s/${i}`, 'retain.items', '{}'));
  stdin.end('{"cmd":"bye"}\n');
  await served;
  assert.equal(taken.join('').split('\n').length - 1, 5);
});

test('serve refuses an unknown op name and a nameless implementation', async () => {
  await assert.rejects(serve({ implementation: { name: 'x' }, ops: /** @type {any} */ ({ 'grep.results': () => ({}) }) }), /unknown op "grep.results"/);
  await assert.rejects(serve({ implementation: { name: '' }, ops: {} }), /implementation.name/);
});

/** Runs `node -e script` with `stdin` (the kit imported as conform-adapter). */
function node(/** @type {string} */ script, /** @type {string} */ stdin) {
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: KIT, input: stdin, encoding: 'utf8', timeout: 20_000 });
}

test('as a process: exits 0 after bye despite a pending timer; stray stdout goes to stderr', () => {
  const script = `import { serve } from 'conform-adapter';
    setInterval(() => {}, 1000);
    await serve({ implementation: { name: 'p' }, ops: { 'retain.items': () => { console.log('stray'); return { ok: true }; } } });`;
  const r = node(script, hello + run('g/1', 'retain.items', '{}') + '{"cmd":"bye"}\n');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.split('\n').slice(1).join('\n'), '{"id":"g/1","output":{"ok":true}}\n');
  assert.match(r.stderr, /stray/);
});

test('as a process: exec mode, one request and the end of stdin, exit 0', () => {
  const script = `import { serve } from 'conform-adapter';
    await serve({ implementation: { name: 'p' }, ops: { 'retain.items': async () => { await new Promise((r) => setTimeout(r, 20)); return { ok: 1 }; } } });`;
  const r = node(script, run('h/1', 'retain.items', '{}'));
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '{"id":"h/1","output":{"ok":1}}\n');
});
