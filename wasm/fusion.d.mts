// fusion.d.mts — lets TypeScript find the types of fusion.mjs (it looks for .d.mts beside .mjs); they live in
// fusion.d.ts.
export * from './fusion.js';
