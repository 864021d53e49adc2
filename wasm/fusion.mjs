// fusion.mjs — the planner for JavaScript, in browsers (ES module, Vite) and in Node ESM: the public entry.
//
//   const fusion = await loadFusion();
//   fusion.plan(graphTextOrObject, {broadcast: true, resident_sources: false})
//     // -> {ok: true, groups, ...} or {ok: false, error: {code, message, op, path, ...}}
//   fusion.validate(graph); fusion.verify(graph, options, plan); fusion.version();
//
//   const graph = new FusionGraph();
//   const x = graph.addOp({name: 'x', kind: 'input', shape: [1024], dtype: 'f32'});
//   graph.addOp({kind: 'relu', inputs: [x], shape: [1024], dtype: 'f32'});
//   new FusionPlanner().withBroadcast(false).plan(graph);  // the plan; or throws FusionError {code, op, path}
//
// Value functions never throw; the builder throws FusionError. Types: fusion.d.ts. Each part lives in its own
// file: fusion-loader.mjs (loading, value API), fusion-graph.mjs, fusion-planner.mjs, fusion-error.mjs.
export { loadFusion } from './fusion-loader.mjs';
export { FusionGraph } from './fusion-graph.mjs';
export { FusionPlanner } from './fusion-planner.mjs';
export { FusionError } from './fusion-error.mjs';
