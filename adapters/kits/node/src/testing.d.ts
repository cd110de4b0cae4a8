// Types of conform-adapter/testing (hand-written; checked by `npm run typecheck`).

export interface ConformTestsOptions {
  /** The adapter: a command string as conform's --adapter splits it ('node my-adapter.mjs'), or an argv. */
  adapter: string | string[];
  /** The conform binary (or argv); default $CONFORM_BIN, `conform` on PATH, or a build of the surrounding conform checkout. */
  conform?: string | string[];
  /** The suite's name (default "conform run <adapter>"). */
  name?: string;
  /** More `conform run` flags, e.g. ['--op', 'retain.items'] or ['--run', '^grep']. */
  args?: string[];
  /** A baseline YAML of known failures (--baseline): its cases are node:test todo tests. */
  baseline?: string;
  /** --exec: one adapter process per case. */
  exec?: boolean;
  /** --jobs. */
  jobs?: number;
  /** The directory conform and the adapter run in (default process.cwd()). */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export interface ConformRun {
  /** The parsed `conform run --format json` report (spec/schemas/report-run.json), undefined if none was printed. */
  report: any;
  status: number | null;
  signal: string | null;
  stderr: string;
  argv: string[];
}

/**
 * Runs `conform run --format json` once and registers each case as a
 * node:test test (a suite named after the run), whose failure message is
 * conform's detail and reproduction line; plus one test for the run's verdict.
 */
export declare function conformTests(options: ConformTestsOptions): Promise<void>;

/** Runs conform once and returns its report. */
export declare function runConform(options: ConformTestsOptions): Promise<ConformRun>;

/** How conform is found: the option, $CONFORM_BIN, PATH, or a conform checkout around cwd or this kit. */
export declare function findConform(options?: { conform?: string | string[]; cwd?: string }): { argv: string[]; cwd?: string; from: string };

/** The argv that runs conform: findConform's, with a checkout's conform built once (go build). */
export declare function conformCommand(options?: { conform?: string | string[]; cwd?: string }): Promise<string[]>;
