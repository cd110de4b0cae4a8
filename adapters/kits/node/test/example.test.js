// The README's example adapter passes conform's retain.items cases, persistent and in exec mode.
import { fileURLToPath } from 'node:url';
import { conformTests } from 'conform-adapter/testing';

const cwd = fileURLToPath(new URL('..', import.meta.url));
conformTests({ name: 'examples/retain-items.mjs', adapter: 'node examples/retain-items.mjs', args: ['--op', 'retain.items'], cwd });
conformTests({ name: 'examples/retain-items.mjs --exec', adapter: 'node examples/retain-items.mjs', args: ['--run', '^retain.items/retain-items-'], exec: true, jobs: 2, cwd });
