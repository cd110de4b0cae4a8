// conform-adapter: write a conform adapter (protocol v1) by registering one
// function per op and calling serve(). See README.md.
export { serve, guardStdout, Skip, OPS, rawMember } from './serve.js';
export { parse, parseLossless, stringify, JsonNumber } from './json.js';
