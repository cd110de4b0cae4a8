// conform's reference harness behind the kit's API: every op is a function
// that hands its input to `conform adapter` (a persistent subprocess) and
// returns what it answers. Run through conform, every case passing shows that
// the kit's reading and writing loses nothing conform compares: each input
// goes through parseLossless and stringify on its way in, each output through
// JSON.parse and stringify on its way out.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { serve, Skip, OPS, parseLossless, stringify } from 'conform-adapter';

const conform = process.env.CONFORM_BIN || 'conform';
const child = spawn(conform, ['adapter'], { stdio: ['pipe', 'pipe', 'inherit'] });
const answers = createInterface({ input: child.stdout, crlfDelay: Infinity })[Symbol.asyncIterator]();
child.on('exit', (code, signal) => {
  if (!stopping) {
    process.stderr.write(`reference: conform adapter exited (${code ?? signal})\n`);
    process.exit(3);
  }
});
let stopping = false;
let n = 0;

/** One request to the reference; its answer. */
async function ask(/** @type {object} */ request) {
  child.stdin.write(stringify(request) + '\n');
  const { value, done } = await answers.next();
  if (done) throw new Error('reference: conform adapter closed its stdout');
  return JSON.parse(value);
}

const hello = await ask({ cmd: 'hello', protocol: 1 });
const op = (/** @type {string} */ name) => async (/** @type {unknown} */ input) => {
  const id = `kit/${++n}`;
  const a = await ask({ cmd: 'run', id, op: name, input });
  if (a.id !== id) throw new Error(`reference: answer for ${a.id}, not ${id}`);
  if (a.skip !== undefined) throw new Skip(a.skip);
  if (a.error !== undefined) throw new Error(a.error.message);
  return a.output;
};

await serve({
  implementation: { name: `${hello.implementation.name} through conform-adapter`, version: hello.implementation.version, language: 'go' },
  ops: Object.fromEntries(OPS.filter((o) => hello.ops.includes(o)).map((o) => [o, op(o)])),
  input: 'lossless',
  exit: false,
});
stopping = true;
child.stdin.end(stringify({ cmd: 'bye' }) + '\n');
