// conformTests: conform's verdicts become node:test results, with conform's
// detail as the failure message in the runner's own output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { conformCommand } from 'conform-adapter/testing';

const KIT = fileURLToPath(new URL('..', import.meta.url));
// A node --test inside a test run would report to this runner, not print TAP.
const { NODE_TEST_CONTEXT: _, ...ENV } = process.env;

/** `node --test` of a suite file, TAP on stdout. */
function nodeTest(/** @type {string[]} */ args, /** @type {Record<string, string>} */ env = {}) {
  return spawnSync(process.execPath, ['--test', '--test-reporter=tap', ...args], { cwd: KIT, encoding: 'utf8', timeout: 120_000, env: { ...ENV, ...env } });
}

test('a failing conform case is a failing node test whose message is conform\'s diff', async () => {
  const conform = await conformCommand({ cwd: KIT });
  const r = nodeTest(['testdata/wrong-retain.suite.mjs'], { CONFORM_BIN: conform[0] });
  assert.equal(r.status, 1, r.stderr);
  const out = r.stdout;
  // The wrong harness keeps one item too many once over the budget.
  assert.match(out, /not ok \d+ - retain\.items\/retain-items-one-over-cap\n/);
  const block = out.slice(out.indexOf('- retain.items/retain-items-one-over-cap\n'));
  const detail = block.slice(0, block.indexOf('\n    ...'));
  assert.match(detail, /FAIL retain\.items\/retain-items-one-over-cap/);
  assert.match(detail, /fails RET-ITEM-/);
  assert.match(detail, /- items \[json\] \$\.items/);
  assert.match(detail, /want \(whole\): \["a","b","c"\]/);
  assert.match(detail, /got \(whole\): {2}\["a","b","c","d"\]/);
  assert.match(detail, /reproduce: conform run --run '\^retain\\\.items\/retain-items-one-over-cap\$'/);
  // Cases within the budget pass; the run's verdict fails.
  assert.match(out, /\nok \d+ - retain\.items\/retain-items-empty\n|\n {4}ok \d+ - retain\.items\/retain-items-empty\n/);
  assert.match(out, /not ok \d+ - conform: the run is conformant/);
  assert.match(out, /# fail [1-9]/);
});

/** conformTests against the fake conform printing `report`, exiting `status`; the TAP output. */
function fake(/** @type {unknown} */ report, status = 0) {
  const script = `import { conformTests } from 'conform-adapter/testing';
    conformTests({ adapter: 'unused', conform: [process.execPath, 'testdata/fake-conform.mjs'] });`;
  return spawnSync(process.execPath, ['--test-reporter=tap', '--input-type=module', '-e', script], {
    cwd: KIT,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...ENV, FAKE_REPORT: typeof report === 'string' ? report : JSON.stringify(report), FAKE_STATUS: String(status) },
  });
}

const base = { format: 'conform-run', version: 1, totals: {}, cases: [{ id: 'retain.items/a', op: 'retain.items', requirements: [], verdict: 'pass', durationMs: 1 }] };

test('the report is read tolerantly: members added are ignored, an unknown verdict fails', () => {
  const ok = fake({ ...base, complete: true, somethingNew: { x: 1 }, cases: [{ ...base.cases[0], extra: [1] }] });
  assert.equal(ok.status, 0, ok.stdout);
  assert.match(ok.stdout, /ok 1 - retain\.items\/a/);
  const odd = fake({ ...base, cases: [{ ...base.cases[0], verdict: 'mystery', message: 'a verdict conform added later' }] }, 1);
  assert.equal(odd.status, 1);
  assert.match(odd.stdout, /not ok 1 - retain\.items\/a[\s\S]*MYSTERY retain\.items\/a[\s\S]*a verdict conform added later/);
});

test('an incomplete run, a fault, no report or a usage exit fail the suite', () => {
  const cases = [
    [{ ...base, complete: false }, 0, /incomplete \(complete: false\)/],
    [{ ...base, cases: [], fault: { kind: 'start', message: 'the adapter exited before the handshake', stderr: 'boom' } }, 2, /could not run the cases \(start\): the adapter exited before the handshake[\s\S]*boom/],
    ['not json', 2, /conform printed no JSON report \(exit status 2\)[\s\S]*fake conform: done/],
    [{ ...base }, 2, /conform exited with 2/],
  ];
  for (const [report, status, want] of cases) {
    const r = fake(report, /** @type {number} */ (status));
    assert.equal(r.status, 1, `${String(want)}: ${r.stdout}`);
    assert.match(r.stdout, /not ok 1 - conform run/);
    assert.match(r.stdout, /** @type {RegExp} */ (want));
  }
});
