// Compiled by `npm run typecheck` only: the public types as a TypeScript user sees them.
import { serve, Skip, stringify, parseLossless, JsonNumber, OPS, type Op, type OpFunction, type CaseContext } from 'conform-adapter';
import { conformTests, type ConformTestsOptions } from 'conform-adapter/testing';

const retain: OpFunction = (input: { items: unknown[] }, ctx: CaseContext) => {
  if (ctx.op !== 'retain.items') throw new Skip(`not ${ctx.id}`);
  return { items: input.items, raw: ctx.raw.length };
};
const op: Op = OPS[0];
const n: unknown = parseLossless('1e2');
const lexeme: string | undefined = n instanceof JsonNumber ? n.lexeme : stringify(n);
void op;
void lexeme;

export async function main(): Promise<void> {
  await serve({ implementation: { name: 'x', language: 'typescript' }, ops: { 'retain.items': retain, 'grep.result': async () => ({}) }, input: 'lossless', exit: false });
  const options: ConformTestsOptions = { adapter: ['node', 'a.mjs'], args: ['--op', 'retain.items'] };
  await conformTests(options);
}

// The hand-written declarations against the sources' JSDoc: each implementation must fit its declaration.
import * as declared from 'conform-adapter';
import * as serveImpl from '../src/serve.js';
import * as jsonImpl from '../src/json.js';

export const checks: [
  typeof declared.serve,
  typeof declared.guardStdout,
  typeof declared.rawMember,
  typeof declared.OPS,
  typeof declared.parse,
  typeof declared.parseLossless,
  typeof declared.stringify,
  new (reason: string) => declared.Skip,
  new (lexeme: string) => declared.JsonNumber,
] = [serveImpl.serve, serveImpl.guardStdout, serveImpl.rawMember, serveImpl.OPS, jsonImpl.parse, jsonImpl.parseLossless, jsonImpl.stringify, serveImpl.Skip, jsonImpl.JsonNumber];
