// fusion-planner.mjs — FusionPlanner: options plus plan(), the throwing builder face of the planner.
//
// new FusionPlanner().withBroadcast(false).withResidentSources(true).withStrategy('xla').withHardware('h100')
// .withRule('max_group_ops', 8): each with*
// returns a new planner (planners are immutable values); options left unset take the C++ defaults. plan(graph) plans a
// FusionGraph, a plain graph object or JSON text with the module that loadFusion() loaded (or the one passed
// as the second argument) and returns the plan object; a failed plan throws FusionError with the error's
// code, message, op and path. Before loadFusion() has resolved it throws FusionError code "not_loaded".
// Option values are checked by C++ ("invalid_options", "unknown_strategy"), not here.
// Shown by tests/wasm/builder.test.mjs.
import { FusionError } from './fusion-error.mjs';
import { loadedFusion } from './fusion-loader.mjs';

export class FusionPlanner {
  #options;

  constructor(options = {}) {
    this.#options = Object.freeze({ ...options });
  }

  get options() {
    return { ...this.#options };
  }

  withBroadcast(on) {
    return new FusionPlanner({ ...this.#options, broadcast: on });
  }

  withResidentSources(on) {
    return new FusionPlanner({ ...this.#options, resident_sources: on });
  }

  withStrategy(name) {
    return new FusionPlanner({ ...this.#options, strategy: name });
  }

  withHardware(name) {
    return new FusionPlanner({ ...this.#options, hardware: name });
  }

  // Overrides one rule of the strategy's preset (docs/strategies.md), e.g. withRule('max_group_ops', 8).
  withRule(name, value) {
    return new FusionPlanner({ ...this.#options, rules: { ...this.#options.rules, [name]: value } });
  }

  plan(graph, fusion = loadedFusion()) {
    if (!fusion) {
      throw new FusionError({
        code: 'not_loaded',
        message: 'the planner module is not loaded yet; await loadFusion() once before planning',
      });
    }
    const result = fusion.plan(graph, this.#options);
    if (!result.ok) throw FusionError.fromResult(result);
    return result;
  }
}
