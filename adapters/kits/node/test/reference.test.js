// conform's reference served through the kit (testdata/reference.mjs wraps
// `conform adapter` behind serve()) passes every case: no false fail comes
// from the kit's protocol handling or its JSON. Exec mode on one op.
import { fileURLToPath } from 'node:url';
import { conformCommand, conformTests } from 'conform-adapter/testing';

const cwd = fileURLToPath(new URL('..', import.meta.url));
const [conform] = await conformCommand({ cwd });
const env = { ...process.env, CONFORM_BIN: conform };
conformTests({ name: 'the reference through the kit', adapter: 'node testdata/reference.mjs', conform, jobs: 2, cwd, env });
conformTests({ name: 'the reference through the kit, --exec', adapter: 'node testdata/reference.mjs', conform, args: ['--run', '/gen-00[12]$'], exec: true, jobs: 2, cwd, env });
