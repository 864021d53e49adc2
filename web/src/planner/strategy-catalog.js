// strategy-catalog.js — the strategies and hardware profiles the pickers offer, with words for people.
//
// Contract: catalogFrom({strategies, hardware}) → {strategies: [{name, label, blurb}], hardware: [...]}: the
// planner's names, in its order, each with a short label and a one-line blurb (a name this file has no
// words for keeps its name as label; a hardware profile's own description wins over the blurb). The names
// come from the core's catalog() — fromModule(fusion) reads a loaded module's (planner-worker.js asks), and
// before it has loaded, the same tables as generated at build time (wasm/generated/catalog.mjs) — so a
// strategy or device added to the core appears in the pickers by itself. Device figures and descriptions are
// the core's (fusion/hardware.h); this file holds only short labels. What an option left out means is
// DEFAULT_CHOICES (web/src/state/options.js). Pure; no planning here. Shown by tests/web/strategy-catalog.test.mjs.
import coreCatalog from '../../../wasm/generated/catalog.mjs';

const WORDS = {
  strategies: {
    seed: [
      'Strict (seed)',
      'Only elementwise ops fuse, along equal or broadcast-compatible shapes (docs/design.md §5).',
    ],
    xla: [
      'XLA-style',
      'Priority fusion: a producer fuses into all its consumers (a copy in each) or none; then multi-output and horizontal loop fusion.',
    ],
    'xla-classic': [
      'XLA-style (classic)',
      "XLA's older instruction fusion rules: loop and input fusion, cheap recomputation, sibling and horizontal fusion; no matmul epilogues.",
    ],
    tvm: [
      'TVM-style',
      'Relay FuseOps: an op fuses into its post-dominator when every op on the paths between them has a pattern that may join.',
    ],
    inductor: [
      'Inductor-style',
      'The scheduler: inlines cheap pointwise ops, fuses nodes of compatible iteration ranges (several reductions per kernel) and pointwise cat.',
    ],
  },
  hardware: { h100: ['H100'], a100: ['A100'], rtx4090: ['RTX 4090'] },
};

// One entry: a name (or {name, description} from the module) with its label and blurb.
function entry(kind, item) {
  const name = typeof item === 'string' ? item : String(item?.name ?? '');
  const [label, blurb = ''] = WORDS[kind][name] ?? [name];
  return { name, label, blurb: typeof item === 'object' && item?.description ? item.description : blurb };
}

export function catalogFrom({ strategies, hardware } = {}) {
  const list = (kind, items) => (Array.isArray(items) ? items : []).map((x) => entry(kind, x));
  return { strategies: list('strategies', strategies), hardware: list('hardware', hardware) };
}

// The lists the core offers: a loaded planner module's catalog() strategy names and hardware profiles, or
// without a module (null) the build's generated catalog (null where a catalog has none).
export function fromModule(fusion) {
  const catalog = typeof fusion?.catalog === 'function' ? fusion.catalog() : coreCatalog;
  return {
    strategies: catalog?.strategies?.map((s) => s.name) ?? null,
    hardware: catalog?.hardware?.map(({ name, description }) => ({ name, description })) ?? null,
  };
}

// The label of a strategy or hardware name ('seed' → 'Strict (seed)'), known to the catalog or not.
export function labelOf(catalog, kind, name) {
  return catalog[kind].find((e) => e.name === name)?.label ?? WORDS[kind][name]?.[0] ?? name;
}
