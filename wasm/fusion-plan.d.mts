// fusion-plan.d.mts — lets TypeScript find the types of fusion-plan.mjs (it looks for .d.mts beside .mjs); they
// live in fusion-plan.d.ts.
export * from './fusion-plan.js';
