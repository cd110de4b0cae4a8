// The adapter side of conform's protocol v1 (docs/protocol.md): read one
// request per stdin line, answer one line per request on stdout, in order.
// The author registers one function per op; everything else is here.

import { parseLossless, stringify } from './json.js';

/** The ops of protocol v1, in `conform ops` order. @type {readonly import('./index.js').Op[]} */
export const OPS = Object.freeze(['glob.result', 'grep.result', 'retain.items', 'retain.text', 'run_code.result', 'search.present', 'spill.preview']);

/** Thrown by an op function for a case it cannot run: answered as {"skip": message}. */
export class Skip extends Error {
  /** @param {string} reason */
  constructor(reason) {
    super(reason);
    this.name = 'Skip';
  }
}

/** @type {((chunk: any, encoding?: any, callback?: any) => boolean) | undefined} */
let realStdoutWrite;

/**
 * Keeps process.stdout for protocol lines: from now on anything else written
 * to it (console.log, a banner of the harness) goes to stderr. Call it before
 * importing a harness that prints while it loads; serve() calls it too.
 * Idempotent. Returns the real writer of stdout.
 */
export function guardStdout() {
  if (realStdoutWrite === undefined) {
    realStdoutWrite = process.stdout.write.bind(process.stdout);
    // @ts-ignore: the same signature, another stream
    process.stdout.write = (chunk, encoding, callback) => process.stderr.write(chunk, encoding, callback);
  }
  return realStdoutWrite;
}

/**
 * Serves the ops until `{"cmd":"bye"}` or the end of stdin; resolves once
 * every answer has been handed to stdout and it has drained. By default
 * (on process.stdout) the process then exits with status 0.
 * @param {import('./index.js').ServeOptions} options
 * @returns {Promise<void>}
 */
export async function serve(options) {
  const { implementation, ops, input: inputMode = 'json', errorMessage = defaultErrorMessage } = checkOptions(options);
  const stdin = options.stdin ?? process.stdin;
  const onProcess = options.stdout === undefined;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const write = onProcess && options.guardStdout !== false ? guardStdout() : stdout.write.bind(stdout);
  const exit = options.exit ?? onProcess;
  const names = Object.keys(ops);
  const diag = (/** @type {string} */ text) => {
    try {
      stderr.write(`conform-adapter: ${text}\n`);
    } catch {
      // stderr is best-effort
    }
  };
  const send = (/** @type {Record<string, unknown> | string} */ answer) => {
    if (typeof answer === 'string') {
      write(answer + '\n');
      return;
    }
    let line;
    try {
      line = stringify(answer);
    } catch (error) {
      diag(`could not write the answer of ${String(answer.id)}: ${describe(error)}`);
      line = stringify({ id: answer.id ?? null, error: { message: `adapter: answer not serializable: ${messageOf(error)}` } });
    }
    write(line + '\n');
  };

  /** @param {string} line @returns {Promise<boolean>} whether to go on */
  const handle = async (line) => {
    if (line.trim() === '') return true;
    let req;
    try {
      req = JSON.parse(line);
    } catch (error) {
      diag(`request is not JSON: ${messageOf(error)}`);
      send({ id: null, error: { message: `adapter: request is not JSON: ${messageOf(error)}` } });
      return true;
    }
    if (typeof req !== 'object' || req === null || Array.isArray(req)) {
      diag(`request is not a JSON object: ${line.slice(0, 200)}`);
      send({ id: null, error: { message: 'adapter: request is not a JSON object' } });
      return true;
    }
    switch (req.cmd) {
      case 'hello':
        if (req.protocol !== 1) diag(`hello asks for protocol ${stringify(req.protocol)}; this adapter speaks protocol 1`);
        send({ protocol: 1, implementation, ops: names });
        return true;
      case 'bye':
        return false;
      case 'run':
        send(await runCase(req, line));
        return true;
      default:
        diag(`unknown cmd: ${stringify(req.cmd)}`);
        send({ id: req.id ?? null, error: { message: `adapter: unknown cmd ${stringify(req.cmd)}` } });
        return true;
    }
  };

  /** @param {any} req @param {string} line */
  const runCase = async (req, line) => {
    const id = req.id ?? null;
    const fn = typeof req.op === 'string' && Object.hasOwn(ops, req.op) ? ops[/** @type {import('./index.js').Op} */ (req.op)] : undefined;
    if (typeof fn !== 'function') return { id, skip: `op ${stringify(req.op)} is not implemented by this adapter` };
    /** @type {string | undefined} */
    let raw;
    const ctx = {
      id,
      op: req.op,
      /** The input member's JSON text exactly as conform sent it. */
      get raw() {
        raw ??= rawMember(line, 'input') ?? 'null';
        return raw;
      },
    };
    try {
      const input = inputMode === 'lossless' ? parseLossless(ctx.raw) : req.input;
      const output = await fn(input, ctx);
      if (typeof output !== 'object' || output === null || Array.isArray(output)) {
        const got = output === null ? 'null' : Array.isArray(output) ? 'an array' : typeof output;
        diag(`case ${stringify(id)}: the ${req.op} function returned ${got}, not an object`);
        return { id, error: { message: `adapter: the ${req.op} function returned ${got}, not an output object` } };
      }
      // Written here, so that an output that cannot be JSON is this case's error.
      let text;
      try {
        text = stringify(output);
      } catch (error) {
        diag(`case ${stringify(id)}: the ${req.op} output cannot be written as JSON: ${describe(error)}`);
        return { id, error: { message: `adapter: answer not serializable: ${messageOf(error)}` } };
      }
      return `{"id":${stringify(id)},"output":${text}}`;
    } catch (error) {
      if (error instanceof Skip) return { id, skip: error.message };
      return { id, error: { message: errorMessage(error, ctx) } };
    }
  };

  await new Promise((resolve, reject) => {
    let chain = Promise.resolve(true);
    let done = false;
    /** @type {Buffer[]} */
    let pending = [];
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const finish = () => {
      if (done) return;
      done = true;
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onError);
      if (typeof stdin.pause === 'function') stdin.pause();
      chain.then(resolve, reject);
    };
    const enqueue = (/** @type {Buffer} */ bytes) => {
      chain = chain.then(async (goOn) => {
        if (!goOn) return false;
        let line;
        try {
          line = decoder.decode(bytes);
        } catch {
          diag('request is not UTF-8');
          send({ id: null, error: { message: 'adapter: request is not UTF-8' } });
          return true;
        }
        // A CRLF's \r is whitespace to JSON.parse.
        const go = await handle(line);
        if (!go) finish();
        return go;
      });
    };
    const onData = (/** @type {Buffer | string} */ chunk) => {
      let buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      let nl;
      while ((nl = buf.indexOf(0x0a)) !== -1) {
        pending.push(buf.subarray(0, nl));
        enqueue(pending.length === 1 ? pending[0] : Buffer.concat(pending));
        pending = [];
        buf = buf.subarray(nl + 1);
      }
      if (buf.length > 0) pending.push(buf);
    };
    const onEnd = () => {
      if (pending.length > 0) enqueue(Buffer.concat(pending));
      pending = [];
      finish();
    };
    const onError = (/** @type {Error} */ error) => {
      diag(`reading stdin: ${describe(error)}`);
      finish();
    };
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.on('error', onError);
  });
  // Every answer is out of this process before it exits.
  if (stdout.writableNeedDrain) await new Promise((resolve) => stdout.once('drain', resolve));
  if (exit) process.exit(0);
}

/** @param {unknown} error */
function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

/** @param {unknown} error */
function describe(error) {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** @param {unknown} error */
function defaultErrorMessage(error) {
  return messageOf(error);
}

/** @param {import('./index.js').ServeOptions} options */
function checkOptions(options) {
  if (typeof options !== 'object' || options === null) throw new TypeError('serve: options must be an object');
  const { implementation, ops } = options;
  if (typeof implementation !== 'object' || implementation === null || typeof implementation.name !== 'string' || implementation.name === '') {
    throw new TypeError('serve: implementation.name must be a non-empty string');
  }
  for (const k of ['version', 'language', 'homepage']) {
    const v = /** @type {any} */ (implementation)[k];
    if (v !== undefined && typeof v !== 'string') throw new TypeError(`serve: implementation.${k} must be a string`);
  }
  if (typeof ops !== 'object' || ops === null) throw new TypeError('serve: ops must be an object of op functions');
  for (const [name, fn] of Object.entries(ops)) {
    if (!OPS.includes(/** @type {import('./index.js').Op} */ (name))) throw new TypeError(`serve: unknown op ${JSON.stringify(name)}; the ops of protocol v1 are ${OPS.join(', ')}`);
    if (typeof fn !== 'function') throw new TypeError(`serve: ops[${JSON.stringify(name)}] must be a function`);
  }
  if (options.input !== undefined && options.input !== 'json' && options.input !== 'lossless') throw new TypeError('serve: input must be "json" or "lossless"');
  return {
    implementation: {
      name: implementation.name,
      version: implementation.version ?? '',
      language: implementation.language ?? '',
      homepage: implementation.homepage ?? '',
    },
    ops,
    input: options.input,
    errorMessage: options.errorMessage,
  };
}

/**
 * The JSON text of the last top-level member `name` of the object in `text`
 * (last-wins, as JSON.parse reads it), or undefined.
 * @param {string} text
 * @param {string} name
 */
export function rawMember(text, name) {
  let found;
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  };
  const skipString = () => {
    let j = i + 1;
    while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
    i = j + 1;
  };
  const skipValue = () => {
    let depth = 0;
    do {
      ws();
      const c = text[i];
      if (c === '"') skipString();
      else if (c === '{' || c === '[') {
        depth++;
        i++;
      } else if (c === '}' || c === ']') {
        depth--;
        i++;
      } else if (c === ',' || c === ':') i++;
      else {
        while (i < n && !' \n\r\t,:]}'.includes(text[i])) i++;
      }
      if (i >= n) return;
    } while (depth > 0);
  };
  ws();
  if (text[i] !== '{') return undefined;
  i++;
  for (;;) {
    ws();
    if (text[i] !== '"') return found;
    const keyStart = i;
    skipString();
    const key = JSON.parse(text.slice(keyStart, i));
    ws();
    if (text[i] !== ':') return found;
    i++;
    ws();
    const start = i;
    skipValue();
    if (key === name) found = text.slice(start, i);
    ws();
    if (text[i] !== ',') return found;
    i++;
  }
}
