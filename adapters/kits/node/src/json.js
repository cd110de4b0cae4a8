// JSON exactly as conform compares it: read as JSON.parse reads it, written
// as JSON.stringify writes it, at any depth. V8's JSON.parse is exact and
// iterative (a lone surrogate stays one UTF-16 code unit, a repeated member
// keeps its last value, 100,000 levels parse), so `parse` is JSON.parse.
// V8's JSON.stringify recurses and throws a RangeError past about 10,000
// levels, so `stringify` walks the value with an explicit stack, and writes
// every string and number through JSON.stringify itself: the leaves' bytes
// are V8's own, only the nesting is done here.
//
// JSON.parse loses number lexemes (1e2 is 100, -0 and 0 print alike,
// 9007199254740993 is 9007199254740992). `parseLossless` keeps them as
// JsonNumber values, which `stringify` writes back as their lexeme.

/** A JSON number as it was written: its lexeme, and the double JSON.parse gives it. */
export class JsonNumber {
  /** @param {string} lexeme */
  constructor(lexeme) {
    if (typeof lexeme !== 'string' || !NUMBER_ALONE.test(lexeme)) throw new SyntaxError(`not a JSON number: ${JSON.stringify(lexeme)}`);
    /** @readonly */
    this.lexeme = lexeme;
  }
  /** The double JSON.parse reads (Infinity for 1e400, -0 for -0). */
  get value() {
    return Number(this.lexeme);
  }
  valueOf() {
    return this.value;
  }
  toString() {
    return this.lexeme;
  }
  /** JSON.stringify (not this module's stringify) writes the double, as JSON.parse would have read it. */
  toJSON() {
    return this.value;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const NUMBER_ALONE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * JSON.parse: lone surrogates kept, duplicate keys last-wins, no depth limit.
 * @param {string} text
 * @returns {unknown}
 */
export function parse(text) {
  return JSON.parse(text);
}

/**
 * Reads `text` as JSON.parse does, but every number is a JsonNumber holding
 * its lexeme. Iterative: no depth limit. A syntax error names the offset.
 * @param {string} text
 * @returns {unknown}
 */
export function parseLossless(text) {
  if (typeof text !== 'string') throw new TypeError('parseLossless: text must be a string');
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const fail = (/** @type {string} */ what) => {
    throw new SyntaxError(`${what} at offset ${i} of the JSON text${i < n ? ` (${JSON.stringify(text.slice(i, i + 12))})` : ' (its end)'}`);
  };
  const string = () => {
    const start = i;
    let j = i + 1;
    let escaped = false;
    for (;;) {
      if (j >= n) {
        i = start;
        fail('unterminated string');
      }
      const c = text.charCodeAt(j);
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        j += 2;
        continue;
      }
      if (c < 0x20) {
        i = j;
        fail('unescaped control character in a string');
      }
      j++;
    }
    i = j + 1;
    if (!escaped) return text.slice(start + 1, j);
    try {
      // The escapes are decoded by JSON.parse itself (lone \ud800 kept).
      return /** @type {string} */ (JSON.parse(text.slice(start, i)));
    } catch {
      i = start;
      return fail('bad escape in a string');
    }
  };
  /** @type {{container: any, key: string | undefined}[]} */
  const stack = [];
  /** @type {unknown} */
  let root;
  let haveRoot = false;
  const put = (/** @type {unknown} */ v) => {
    const top = stack[stack.length - 1];
    if (top === undefined) {
      root = v;
      haveRoot = true;
    } else if (Array.isArray(top.container)) top.container.push(v);
    else define(top.container, /** @type {string} */ (top.key), v);
  };
  for (;;) {
    ws();
    // A value.
    if (i >= n) fail('unexpected end');
    const c = text.charCodeAt(i);
    let opened = false;
    if (c === 0x7b) {
      i++;
      const obj = {};
      put(obj);
      stack.push({ container: obj, key: undefined });
      ws();
      if (text.charCodeAt(i) === 0x7d) {
        i++;
        stack.pop();
      } else {
        if (text.charCodeAt(i) !== 0x22) fail('expected a member name');
        stack[stack.length - 1].key = string();
        ws();
        if (text.charCodeAt(i) !== 0x3a) fail("expected ':'");
        i++;
        opened = true;
      }
    } else if (c === 0x5b) {
      i++;
      const arr = /** @type {unknown[]} */ ([]);
      put(arr);
      stack.push({ container: arr, key: undefined });
      ws();
      if (text.charCodeAt(i) === 0x5d) {
        i++;
        stack.pop();
      } else opened = true;
    } else if (c === 0x22) put(string());
    else if (text.startsWith('true', i)) {
      i += 4;
      put(true);
    } else if (text.startsWith('false', i)) {
      i += 5;
      put(false);
    } else if (text.startsWith('null', i)) {
      i += 4;
      put(null);
    } else {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (m === null) fail('unexpected character');
      i += /** @type {RegExpExecArray} */ (m)[0].length;
      put(new JsonNumber(/** @type {RegExpExecArray} */ (m)[0]));
    }
    if (opened) continue;
    // After a value: close containers or go on to the next element.
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) {
        ws();
        if (i < n) fail('unexpected text after the JSON value');
        if (!haveRoot) fail('no value');
        return root;
      }
      ws();
      const d = text.charCodeAt(i);
      const isArray = Array.isArray(top.container);
      if (d === 0x2c) {
        i++;
        if (!isArray) {
          ws();
          if (text.charCodeAt(i) !== 0x22) fail('expected a member name');
          top.key = string();
          ws();
          if (text.charCodeAt(i) !== 0x3a) fail("expected ':'");
          i++;
        }
        break;
      }
      if (d === (isArray ? 0x5d : 0x7d)) {
        i++;
        stack.pop();
        continue;
      }
      fail(isArray ? "expected ',' or ']'" : "expected ',' or '}'");
    }
  }
}

/** CreateDataProperty, as JSON.parse defines members: "__proto__" is an own member, not the prototype. */
function define(/** @type {any} */ obj, /** @type {string} */ key, /** @type {unknown} */ value) {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

/**
 * JSON.stringify(value), byte for byte, at any depth (no replacer, no
 * indentation: the protocol's lines are compact). toJSON, boxed primitives,
 * undefined/function/symbol members, NaN/Infinity as null, lone surrogates
 * escaped as \udXXX, a BigInt or a cycle a TypeError; a JsonNumber is
 * written as its lexeme.
 * @param {unknown} value
 * @returns {string | undefined}
 */
export function stringify(value) {
  /** @type {string[]} */
  const out = [];
  /** @type {{obj: any, keys: string[] | null, length: number, index: number, first: boolean}[]} */
  const stack = [];
  const open = new Set();
  const begin = (/** @type {any} */ obj) => {
    if (open.has(obj)) throw new TypeError('Converting circular structure to JSON');
    open.add(obj);
    if (Array.isArray(obj)) {
      out.push('[');
      stack.push({ obj, keys: null, length: obj.length, index: 0, first: true });
    } else {
      out.push('{');
      const keys = Object.keys(obj);
      stack.push({ obj, keys, length: keys.length, index: 0, first: true });
    }
  };
  const first = leaf({ '': value }, '');
  if (typeof first !== 'object') return first;
  begin(first.obj);
  while (stack.length > 0) {
    const f = stack[stack.length - 1];
    if (f.index >= f.length) {
      out.push(f.keys === null ? ']' : '}');
      open.delete(f.obj);
      stack.pop();
      continue;
    }
    const key = f.keys === null ? String(f.index) : f.keys[f.index];
    f.index++;
    let v = leaf(f.obj, key);
    if (f.keys === null) {
      if (!f.first) out.push(',');
      if (v === undefined) v = 'null';
    } else {
      if (v === undefined) continue;
      out.push(f.first ? JSON.stringify(key) + ':' : ',' + JSON.stringify(key) + ':');
    }
    f.first = false;
    if (typeof v === 'string') out.push(v);
    else begin(v.obj);
  }
  return out.join('');
}

/**
 * SerializeJSONProperty(key, holder) up to the point of nesting: the text of
 * a leaf, undefined for nothing, or the container to open.
 * @param {any} holder
 * @param {string} key
 * @returns {string | undefined | {obj: object}}
 */
function leaf(holder, key) {
  let v = holder[key];
  if (v instanceof JsonNumber) return v.lexeme;
  if ((typeof v === 'object' && v !== null) || typeof v === 'bigint') {
    const toJSON = v.toJSON;
    if (typeof toJSON === 'function') v = toJSON.call(v, key);
  }
  if (typeof v === 'object' && v !== null) {
    if (v instanceof JsonNumber) return v.lexeme;
    if (v instanceof Number) v = Number(v);
    else if (v instanceof String) v = String(v);
    else if (v instanceof Boolean) v = Boolean.prototype.valueOf.call(v);
    else if (v instanceof BigInt) v = BigInt.prototype.valueOf.call(v);
  }
  switch (typeof v) {
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(v);
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      return v === null ? 'null' : { obj: v };
    default:
      return undefined; // undefined, a function, a symbol
  }
}
