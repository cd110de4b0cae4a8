// Types of conform-adapter (hand-written; `npm run typecheck` checks them
// against the sources' JSDoc and test/types.ts).

/** The ops of conform's adapter protocol v1 (`conform ops`). */
export type Op = 'glob.result' | 'grep.result' | 'retain.items' | 'retain.text' | 'run_code.result' | 'search.present' | 'spill.preview';

/** The ops of protocol v1, in `conform ops` order. */
export declare const OPS: readonly Op[];

/** Who answers, shown in conform's report. */
export interface Implementation {
  /** Non-empty. */
  name: string;
  version?: string;
  /** "typescript", "javascript"; default "". */
  language?: string;
  homepage?: string;
}

/** What an op function learns about its case besides the input. */
export interface CaseContext {
  /** The case ID, e.g. "retain.items/head-keeps-first". */
  readonly id: string;
  readonly op: Op;
  /** The `input` member's JSON text exactly as conform sent it (number lexemes, duplicate keys and all). */
  readonly raw: string;
}

/**
 * One op of the harness: the case's input in, the op's output object out
 * (or a promise of it). A throw is the case's error answer (the harness threw
 * for this input); throw `Skip` for a case the harness cannot run.
 */
export type OpFunction = (input: any, context: CaseContext) => object | Promise<object>;

export type Ops = { [op in Op]?: OpFunction };

export interface ServeOptions {
  implementation: Implementation;
  /** One function per op the harness implements; the handshake lists them in this order. */
  ops: Ops;
  /**
   * How the input reaches the op functions: "json" (default) is JSON.parse's value, what the harness
   * sees in production; "lossless" is parseLossless's, with every number a JsonNumber keeping its lexeme.
   */
  input?: 'json' | 'lossless';
  /** The message of a thrown error's answer (default: error.message, or String(error)). */
  errorMessage?: (error: unknown, context: CaseContext) => string;
  /** Default process.stdin. */
  stdin?: NodeJS.ReadableStream;
  /** Default process.stdout, guarded (see guardStdout). */
  stdout?: NodeJS.WritableStream & { writableNeedDrain?: boolean };
  /** Default process.stderr: the kit's own diagnostics. */
  stderr?: NodeJS.WritableStream;
  /** Exit with status 0 once the session ended and stdout drained (default: true on process.stdout). */
  exit?: boolean;
  /** Divert other writes to process.stdout to stderr (default true; only on process.stdout). */
  guardStdout?: boolean;
}

/**
 * Serves the ops over stdin/stdout until `{"cmd":"bye"}` or the end of stdin
 * (persistent and exec mode alike); resolves once every answer has drained.
 */
export declare function serve(options: ServeOptions): Promise<void>;

/** Keeps process.stdout for protocol lines; other writes go to stderr. Returns the real writer. Idempotent. */
export declare function guardStdout(): (chunk: string | Uint8Array) => boolean;

/** Throw it from an op function to answer the case with {"skip": reason}. */
export declare class Skip extends Error {
  constructor(reason: string);
}

/** The JSON text of the last top-level member `name` of the object in `text`, or undefined. */
export declare function rawMember(text: string, name: string): string | undefined;

/** A JSON number as written: its lexeme, and the double JSON.parse gives it. */
export declare class JsonNumber {
  constructor(lexeme: string);
  readonly lexeme: string;
  /** The double JSON.parse reads (Infinity for 1e400, -0 for -0). */
  readonly value: number;
  valueOf(): number;
  toString(): string;
  toJSON(): number;
}

/** JSON.parse: lone surrogates kept, duplicate keys last-wins, no depth limit. */
export declare function parse(text: string): unknown;

/** As parse, but every number is a JsonNumber keeping its lexeme. Iterative: no depth limit. */
export declare function parseLossless(text: string): unknown;

/** JSON.stringify(value) byte for byte, at any depth; a JsonNumber is written as its lexeme. */
export declare function stringify(value: unknown): string | undefined;
