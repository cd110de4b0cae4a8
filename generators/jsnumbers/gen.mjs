// gen.mjs — deterministic JS Number-to-String reference table.
//
// Builds a fixed list of finite float64 values and writes
// reference/jsonjs/testdata/numbers.json: a JSON array with one object per
// line, {"bits":"<16 lowercase hex IEEE-754 bits>","js":"<String(x)>"}.
// No dependencies; rerun with `node generators/jsnumbers/gen.mjs` from the
// module root (the output path is resolved relative to this file).

import { writeFileSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const outPath = resolve(here, "../../reference/jsonjs/testdata/numbers.json");

const buf = new DataView(new ArrayBuffer(8));
function bitsOf(x) {
  buf.setFloat64(0, x);
  return buf.getBigUint64(0);
}
function fromBits(b) {
  buf.setBigUint64(0, BigInt.asUintN(64, b));
  return buf.getFloat64(0);
}
function hex(b) {
  return b.toString(16).padStart(16, "0");
}
function nextUp(x) {
  if (x === 0) return Number.MIN_VALUE;
  const b = bitsOf(x);
  return fromBits(x > 0 ? b + 1n : b - 1n);
}
function nextDown(x) {
  return -nextUp(-x);
}

const values = [];
const seen = new Set();
function add(x) {
  if (typeof x !== "number" || !Number.isFinite(x)) return;
  const b = bitsOf(x);
  const key = hex(b);
  if (seen.has(key)) return;
  seen.add(key);
  values.push(x);
}
function addSigned(x) {
  add(x);
  add(-x);
}

// 1. Required special values.
add(0);
add(-0);
add(1e21);
add(1e-7);
add(5e-324);
add(-5e-324);
add(0.1 + 0.2);
add(123456789012345680000);
add(1.7976931348623157e308);

// 2. The code-mode.md §4.1 table.
for (const x of [
  0, -0, 100, 0.1, 0.1 + 0.2, 1 / 3, 123.456, 4.35, 1e20, 1e21,
  999999999999999999999, 9.999999999999999e20, 123456789012345680000,
  12345678901234567890123, 2 ** 53, 1e15 + 0.3, 4503599627370497.5,
  0.000001, -1e-6, 0.000001234, 9.9e-7, 1e-7, 1.5e-7, -2.5e-10, 123e-20,
  5e-324, 1e100, 1e300, 1.7976931348623157e308,
]) add(x);

// 3. Integers around 2^53 (and 2^54, 2^52 for the parity cases).
for (const base of [2 ** 53, 2 ** 54, 2 ** 52]) {
  for (let d = -5; d <= 5; d++) addSigned(base + d);
}
addSigned(Number.MAX_SAFE_INTEGER);

// 4. Powers of ten 1e-330 .. 1e330 (parsed from literals, so correctly rounded).
for (let e = -330; e <= 330; e++) {
  const x = Number(`1e${e}`);
  if (x !== 0 && Number.isFinite(x)) addSigned(x);
}

// 5. Formatting boundaries and their neighbours.
for (const b of [1e21, 1e-6, 1e-7, 1e20, 1e22, 1e-5, 1, 10, 0.1, 2 ** 53]) {
  let up = b, down = b;
  for (let i = 0; i < 3; i++) {
    up = nextUp(up);
    down = nextDown(down);
    addSigned(up);
    addSigned(down);
  }
}
add(999999999999999999999);
add(9.999999999999999e20);
add(99999999999999990000);
add(999999999999999900000);
add(0.0000009999999999999999);
add(0.000000999999999999999);
add(0.0000010000000000000002);

// 6. 10^n * k for small k.
for (let n = -25; n <= 25; n++) {
  for (const k of [1, 2, 3, 5, 7, 9, 11, 12, 25, 99, 123, 999, 1234567]) {
    add(Number(`${k}e${n}`));
  }
}
for (const n of [-324, -323, -320, -310, -308, -307, 300, 305, 307, 308]) {
  for (const k of [1, 2, 3, 5, 9, 17, 179]) addSigned(Number(`${k}e${n}`));
}

// 7. Subnormals and extremes.
add(Number.MIN_VALUE);
add(-Number.MIN_VALUE);
add(Number.MAX_VALUE);
add(-Number.MAX_VALUE);
add(nextDown(Number.MAX_VALUE));
add(2.2250738585072014e-308); // smallest normal
add(nextDown(2.2250738585072014e-308)); // largest subnormal
for (const m of [1n, 2n, 3n, 7n, 10n, 99n, 1000n, 12345n, 0xfffffn, 0x8000000000000n, 0xfffffffffffffn]) {
  addSigned(fromBits(m));
}
for (let e = 0; e < 52; e += 3) add(fromBits(1n << BigInt(e)));

// 8. Powers of two.
for (let e = -1074; e <= 1023; e += 37) addSigned(2 ** e);
for (let e = 60; e <= 80; e++) add(2 ** e);

// 9. Hand-picked shortest-digit cases.
for (const x of [
  0.5, 1.5, 2.5, 0.25, 0.125, 1e-6 * 3, 5e-7, 0.3, 0.7, 1.1, 2.675, 1.005,
  0.1 * 3, 100 / 3, 2 / 3, 1e23, 8.41e21, 5e-324 * 3, 9007199254740993,
  295147905179352830000, 4.940656458412465e-324, 1.2345e-7, 123456.789,
  3.141592653589793, 2.718281828459045, 6.02214076e23, 1.602176634e-19,
  1234567890123456789, 0.000123, 12e-7, 1.25e-6,
]) addSigned(x);

// 10. Seeded PRNG (splitmix64) — random bit patterns and "human" decimals.
let state = 0x9e3779b97f4a7c15n ^ 0x0123456789abcdefn;
function next64() {
  state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
  let z = state;
  z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
  z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
  return z ^ (z >> 31n);
}
function nextInt(n) {
  return Number(next64() % BigInt(n));
}

// 10a. Uniform random bit patterns (NaN/Inf skipped).
for (let i = 0; i < 250; i++) add(fromBits(next64()));

// 10b. Random exponents with random mantissas, biased towards the formatting
// boundaries (exponents near 1e-7 .. 1e21).
for (let i = 0; i < 150; i++) {
  const exp = BigInt(1023 - 30 + nextInt(110)); // about 2^-30 .. 2^79
  const mant = next64() & 0xfffffffffffffn;
  const sign = next64() & 1n;
  add(fromBits((sign << 63n) | (exp << 52n) | mant));
}

// 10c. Random "human" decimals: up to 9 significant digits, exponent -12..24.
for (let i = 0; i < 250; i++) {
  const digits = 1 + nextInt(9);
  let s = String(1 + nextInt(9));
  for (let j = 1; j < digits; j++) s += String(nextInt(10));
  const e = nextInt(37) - 12 - (digits - 1);
  const sign = nextInt(4) === 0 ? "-" : "";
  add(Number(`${sign}${s}e${e}`));
}

// 10d. Random decimals written in plain form with up to 17 digits.
for (let i = 0; i < 100; i++) {
  const digits = 10 + nextInt(8);
  let s = String(1 + nextInt(9));
  for (let j = 1; j < digits; j++) s += String(nextInt(10));
  const point = nextInt(digits + 8) - 7; // position of the decimal point
  let lit;
  if (point <= 0) lit = "0." + "0".repeat(-point) + s;
  else if (point >= digits) lit = s + "0".repeat(point - digits);
  else lit = s.slice(0, point) + "." + s.slice(point);
  add(Number(lit));
}

// 10e. Random integers.
for (let i = 0; i < 60; i++) {
  add(Number(next64() >> BigInt(nextInt(64))));
}

const lines = values.map((x) =>
  JSON.stringify({ bits: hex(bitsOf(x)), js: String(x) }),
);
mkdirSync(dirname(outPath), { recursive: true });
writeFileSync(outPath, "[\n" + lines.join(",\n") + "\n]\n");
console.log(`wrote ${values.length} values to ${outPath}`);
