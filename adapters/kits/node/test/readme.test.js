// The README's example is the example file, so what a new user copies is what `make kit-node` runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

test("the README's adapter is examples/retain-items.mjs", () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const block = readme.match(/```js\n([\s\S]*?)```/);
  assert.ok(block, 'no js block in README.md');
  const example = readFileSync(new URL('../examples/retain-items.mjs', import.meta.url), 'utf8');
  assert.equal(block[1], example);
  assert.ok(example.split('\n').filter((l) => l.trim() !== '').length <= 20, 'the example is longer than 20 lines');
});
