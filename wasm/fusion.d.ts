// fusion.d.ts — hand-written types for wasm/fusion.mjs (Emscripten 3.1.6 cannot emit them).
// The JSON shapes are those of docs/design.md (§2 graph, §9 options, §10 plan, §3 errors); keys may be added over
// time, so objects stay open.

/** One op as given to FusionGraph.addOp or listed in a graph's "ops". */
export interface OpSpec {
  kind: string;
  /** Producer ids (insertion indices) or names; the same producer may appear twice. */
  inputs?: Array<number | string>;
  /** Output shape; [] is a scalar. */
  shape: number[];
  /** Bytes per element; or give `dtype` instead. */
  dtype_bytes?: number;
  /** "f32", "f16", "bf16", "f64", "i8", "i32", "i64", "bool", ... */
  dtype?: string;
  name?: string;
  /** Always written to memory, even when only its own group reads it. */
  output?: boolean;
  /** Control-flow region ("" = top level); nothing fuses across regions. */
  region?: string;
  /** Free text shown with the op, e.g. the ONNX op type of an opaque op; the planner ignores it. */
  label?: string;
  [key: string]: unknown;
}

export interface GraphJson {
  ops: OpSpec[];
  [key: string]: unknown;
}

/** A graph argument: JSON text, a plain graph object or a FusionGraph. */
export type GraphInput = string | GraphJson | FusionGraph;

export interface PlanOptions {
  /** Merge broadcast-compatible shapes (default true); false needs equal shapes. */
  broadcast?: boolean;
  /** Sources cost nothing to write (default false). */
  resident_sources?: boolean;
  /** Grouping strategy: "seed" (default), "xla", "tvm", "inductor" (docs/strategies.md). */
  strategy?: string;
  /** Time model device: "h100", "a100" (default), "rtx4090". */
  hardware?: string;
  /** Overrides of single rules of the strategy's preset, e.g. {max_group_ops: 8}. */
  rules?: Partial<StrategyRules>;
  /** Values of named dimensions, over the graph's own "dims" (docs/design.md §16), e.g. {N: 64}. */
  dims?: Record<string, number>;
}

/** The rule table of docs/strategies.md, as plans report it under options.rules. */
export interface StrategyRules {
  horizontal: boolean;
  horizontal_small_bytes: number;
  horizontal_max_ops: number;
  epilogue: boolean;
  reduction_prologue: boolean;
  reduction_epilogue: boolean;
  recompute: 'none' | 'cheap' | 'all';
  movement: string[];
  max_group_ops: number;
  max_group_operands: number;
  max_live_values: number;
  refuse_unprofitable: boolean;
}

export interface HardwareProfile {
  name: string;
  description: string;
  bandwidth_bytes_per_s: number;
  vector_flops_per_s: number;
  matrix_flops_per_s: number;
  launch_us: number;
}

/** What the planner offers (Fusion.catalog()). */
export interface Catalog {
  ok: true;
  strategies: Array<{ name: string; rules: StrategyRules }>;
  hardware: HardwareProfile[];
  rules: string[];
  reasons: string[];
  /** Every op kind with its category and the other names it is accepted under (normalized: lowercase,
   * no "_" or "-"; matching ignores case, "_" and "-"). */
  kinds: Array<{ name: string; category: 'source' | 'elementwise' | 'barrier'; aliases: string[] }>;
  /** What an option left out means. */
  defaults: { broadcast: boolean; resident_sources: boolean; strategy: string; hardware: string };
  /** Error codes: the user's mistakes, and failures that are not (error values with internal: true). */
  errors: { user: string[]; internal: string[] };
}

/** Options argument: an object, JSON text, or undefined/null for the defaults. */
export type OptionsInput = PlanOptions | string | null | undefined;

export interface ErrorInfo {
  /** Stable lower_snake_case code: a user error ("cycle", "unknown_input", "json_syntax", …) or, with
   * `internal`, "out_of_memory" / "internal_error" (Catalog["errors"] lists both sets). */
  code: string;
  message: string;
  op?: number;
  /** JSON pointer into the input, e.g. "/ops/3/inputs/0". */
  path?: string;
  line?: number;
  column?: number;
  /** True for failures that are not the caller's mistake (a bug, or out of memory). */
  internal?: boolean;
  /** internal_error from a failed internal check: the broken invariant, and where in the core. */
  invariant?: string;
  where?: string;
}

export interface Failure {
  ok: false;
  error: ErrorInfo;
  /** Every problem found; the first is `error`. */
  errors?: ErrorInfo[];
}

export interface FusionGroup {
  id: number;
  ops: number[];
  inputs: number[];
  outputs: number[];
  bytes_read: number;
  bytes_written: number;
  /** With named dimensions: bytes_read and bytes_written as polynomials in the names (docs/design.md §16). */
  bytes_read_formula?: string | null;
  bytes_written_formula?: string | null;
  /** Members recomputed here (also in `ops`); their owner is another group, or none. */
  recomputed: number[];
  /** Pattern label, e.g. "matmul+bias+act"; "" when none. */
  label: string;
  /** Whether the group runs a kernel: some member has inputs (a group of sources only does not). */
  kernel: boolean;
  flops: number;
  /** Estimated kernel time on the plan's hardware profile; 0 for sources. */
  time_us: number;
  [key: string]: unknown;
}

export interface PlanEdge {
  producer: number;
  consumer: number;
  fused: boolean;
  /** Why an edge was not fused: "source", "barrier_producer", "barrier_consumer", "shape", "cycle", "anchor",
   * "layout", "multi_pass", "limit", "unprofitable", "region". */
  reason?: string;
  [key: string]: unknown;
}

/** Something that did not stop the plan, e.g. {code: "unused_dim", message, path: "/dims/Q"}. */
export interface PlanWarning {
  code: string;
  message: string;
  path: string;
}

export interface Plan {
  ok: true;
  groups: FusionGroup[];
  /** op id -> group id */
  op_group: number[];
  bytes_unfused: number;
  bytes_fused: number;
  /** For a graph with named dimensions (docs/design.md §16): the values used. */
  dims?: Record<string, number>;
  /** Proven: every value of every name gives this grouping. */
  grouping_independent_of_dims?: boolean;
  /** The bytes as exact polynomials in the names, e.g. "9216*N + 6144"; null when a coefficient does not fit. */
  bytes_unfused_formula?: string | null;
  bytes_fused_formula?: string | null;
  bytes_saved_formula?: string | null;
  /** Present with named dimensions, or when there is something to warn about. */
  warnings?: PlanWarning[];
  speedup_estimate: number;
  kernels_unfused: number;
  kernels_fused: number;
  flops_unfused: number;
  flops_fused: number;
  time_unfused_us: number;
  time_fused_us: number;
  time_speedup: number;
  edges: PlanEdge[];
  [key: string]: unknown;
}

/** One value of a sweep (docs/design.md §16). */
export interface SweepRow {
  value: number;
  bytes_unfused: number;
  bytes_fused: number;
  speedup_estimate: number;
  time_unfused_us: number;
  time_fused_us: number;
  time_speedup: number;
  kernels_fused: number;
  /** The grouping differs from the previous row's. */
  changed: boolean;
}

/** The plan across one named dimension: rows, and exact values where the grouping changes. */
export interface Sweep {
  ok: true;
  dim: string;
  rows: SweepRow[];
  changes: { at: number; kernels_before: number; kernels_after: number }[];
}

/** What to sweep: `{dim: "N", from: 1, to: 4096}`; `step` 0 or absent means powers of two. */
export interface SweepSpec {
  dim: string;
  from?: number;
  to?: number;
  step?: number;
}

/** Which generated code to answer (docs/design.md §19): a dialect, and one group or every group. */
export interface CodeRequest {
  dialect?: 'c' | 'triton';
  group?: number;
}

/** A load or store line of a kernel: its 1-based number, the op it reads or writes, and its bytes. */
export interface CodeLine {
  line: number;
  kind: 'load' | 'store';
  op: number;
  bytes: number;
}

/** Generated kernels, one per group asked for; their annotated bytes equal the group's bytes. */
export interface Code {
  ok: true;
  dialect: 'c' | 'triton';
  groups: { id: number; code: string; bytes_read: number; bytes_written: number; lines: CodeLine[] }[];
}

/** A graph read once (`loadGraph`), re-planned with new options without reading its text again. */
export interface LoadedGraph {
  ok: true;
  handle: number;
  ops: number;
  plan(options?: OptionsInput): Plan | Failure;
  planText(options?: OptionsInput): string;
  sweep(options: OptionsInput | undefined, spec: SweepSpec | string): Sweep | Failure;
  code(options: OptionsInput | undefined, request: CodeRequest | string): Code | Failure;
  /** Frees the graph inside the module; later calls answer an error value. */
  release(): void;
}

export interface Validation {
  ok: true;
  ops: number;
  edges: number;
}

export interface Violation {
  code: string;
  message: string;
  group?: number;
  op?: number;
}

export interface Verification {
  ok: true;
  valid: boolean;
  violations: Violation[];
}

/** The loaded module. No function here throws: failures come back as `Failure`. */
export interface Fusion {
  plan(graph: GraphInput, options?: OptionsInput): Plan | Failure;
  validate(graph: GraphInput): Validation | Failure;
  verify(graph: GraphInput, options: OptionsInput, plan: Plan | string): Verification | Failure;
  /** The plan across one named dimension's values (docs/design.md §16). */
  sweep(graph: GraphInput, options: OptionsInput | undefined, spec: SweepSpec | string): Sweep | Failure;
  /** The plan's generated code (docs/design.md §19): a group's kernel in C or Triton style. */
  code(graph: GraphInput, options: OptionsInput | undefined, request: CodeRequest | string): Code | Failure;
  /** Reads a graph once for repeated planning (new dimension values, options) without re-parsing. */
  loadGraph(graph: GraphInput): LoadedGraph | Failure;
  /** The library version, e.g. "0.1.0". */
  version(): string;
  /** Strategies with their rules, hardware profiles, rule names and edge reasons. */
  catalog(): Catalog;
  /** The C++ facade's JSON text, unparsed (what the native CLI prints). */
  planText(graph: GraphInput, options?: OptionsInput): string;
  validateText(graph: GraphInput): string;
  verifyText(graph: GraphInput, options: OptionsInput, plan: Plan | string): string;
  sweepText(graph: GraphInput, options: OptionsInput | undefined, spec: SweepSpec | string): string;
  codeText(graph: GraphInput, options: OptionsInput | undefined, request: CodeRequest | string): string;
  /**
   * Bytes of WASM memory the current instance holds (grows on demand up to 1 GiB, never shrinks); 0 while
   * the module restarts after an internal failure. For leak checks.
   */
  heapBytes(): number;
}

/**
 * Loads the WASM module (once; later calls share it). Rejects only when the module cannot be loaded
 * (FusionError code "load_failed"); a later call tries again.
 */
export function loadFusion(): Promise<Fusion>;

/** The typed error of the builder API; `code` is the same stable string as in error values. */
export class FusionError extends Error {
  constructor(info: ErrorInfo, errors?: ErrorInfo[]);
  readonly name: 'FusionError';
  readonly code: string;
  readonly op?: number;
  readonly path?: string;
  readonly line?: number;
  readonly column?: number;
  /** True for failures that are not the caller's mistake (internal_error, out_of_memory). */
  readonly internal: boolean;
  readonly invariant?: string;
  readonly where?: string;
  readonly errors: ErrorInfo[];
  static fromResult(result: Failure): FusionError;
}

/** Append-only graph builder; ids are insertion indices. */
export class FusionGraph {
  /**
   * Appends an op and returns its id. Throws FusionError "unknown_input" when an input is not an earlier op's
   * id or name, "duplicate_name" for a reused name, "invalid_type" for a malformed spec.
   */
  addOp(spec: OpSpec): number;
  readonly size: number;
  idOf(name: string): number | undefined;
  toJSON(): GraphJson;
}

/** Planner options and plan(); immutable: each with* returns a new planner. */
export class FusionPlanner {
  constructor(options?: PlanOptions);
  readonly options: PlanOptions;
  withBroadcast(on: boolean): FusionPlanner;
  withResidentSources(on: boolean): FusionPlanner;
  withStrategy(name: string): FusionPlanner;
  withHardware(name: string): FusionPlanner;
  /** Overrides one rule of the strategy's preset. */
  withRule<K extends keyof StrategyRules>(name: K, value: StrategyRules[K]): FusionPlanner;
  /**
   * Plans the graph with the module loadFusion() loaded (or `fusion`). Throws FusionError on a failed plan
   * (code, op, path of the first error) and "not_loaded" before loadFusion() has resolved.
   */
  plan(graph: GraphInput, fusion?: Fusion): Plan;
}
