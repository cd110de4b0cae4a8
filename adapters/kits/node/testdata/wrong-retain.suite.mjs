// Run by test/testing.test.js as `node --test testdata/wrong-retain.suite.mjs`:
// conform's retain.items cases against a wrong harness, as node:test tests.
import { conformTests } from 'conform-adapter/testing';

conformTests({ adapter: 'node testdata/wrong-retain.mjs', args: ['--op', 'retain.items'], cwd: new URL('..', import.meta.url).pathname });
