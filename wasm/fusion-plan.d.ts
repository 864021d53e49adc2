// fusion-plan.d.ts — hand-written types for wasm/fusion-plan.mjs, the plan-only module; the shapes are those of
// fusion.d.ts.
import type { Fusion } from './fusion.js';

/**
 * Loads the plan-only WASM module (once; later calls share it): the same API as loadFusion()'s, from a smaller
 * module. validate, verify, sweep and code (their *Text forms, and a loaded graph's) answer a Failure with code
 * "not_in_module". Rejects only when the module cannot be loaded (FusionError code "load_failed").
 */
export function loadFusionPlan(): Promise<Fusion>;

/** The API loadFusionPlan() resolved to, or null before it has. */
export function loadedFusionPlan(): Fusion | null;
