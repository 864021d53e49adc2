// gallery.js — the examples gallery: ids, titles and one-line stories, in display order.
//
// Contract: each entry names a graph file under examples/ (graph JSON of docs/design.md §2): exampleFile(entry)
// → `file` when given (the PyTorch models in examples/models/, written by tools/make_gallery.py), else
// '<id>.json'. Ids are unique across both folders. `optimal: true` opens the example with the Optimal switch on
// (its link adds '&optimal': plan search, docs/design.md §17). Pure data: it loads no files (examples-data.js does that in
// the page; tests read the files with fs) and holds no numbers (the planner computes them when an example
// opens). DEFAULT_EXAMPLE is what a fresh page and a damaged link show. Shown by tests/web/gallery.test.mjs.

export const GALLERY = [
  { id: 'bias-relu', title: 'Bias + ReLU', blurb: 'An add and a ReLU on one activation fuse into one kernel.' },
  {
    id: 'elementwise-chain',
    title: 'Elementwise chain',
    blurb: 'Scale, shift, tanh and cast: four kernels become one.',
  },
  { id: 'diamond', title: 'Diamond', blurb: 'One value feeds two branches that meet again; all four ops fuse.' },
  {
    id: 'multi-consumer',
    title: 'Multi-consumer intermediate',
    blurb: 'GELU output feeds a matmul, so it must still be written to memory.',
  },
  {
    id: 'barrier-sandwich',
    title: 'Barrier sandwich',
    blurb: 'a → matmul → c plus a → c: fusing a with c would need the matmul inside one kernel.',
  },
  {
    id: 'broadcast',
    title: 'Broadcast: compatible vs incompatible',
    blurb: 'A [4096,1] scale fuses into [4096,1024]; a [4096] one does not (trailing-dimension rule).',
  },
  {
    id: 'transformer-mlp',
    title: 'Transformer MLP block',
    blurb: 'matmul → bias → GELU → matmul → bias → residual, in fp16.',
  },
  { id: 'attention-scores', title: 'Attention scores', blurb: 'QKᵀ, scale and mask fuse; softmax is a barrier.' },
  {
    id: 'resnet-basic-block',
    title: 'ResNet basic block',
    blurb: 'conv, batch-norm as scale/shift, ReLU and the residual add.',
  },
  {
    id: 'greedy-trap',
    title: 'Greedy trap: a small op fused too early',
    optimal: true,
    blurb:
      'Greedy fuses the exp into its first reader, which then cannot join the final add (the matmul would sit ' +
      'inside that kernel), so a big tensor goes to memory and back. Optimal search cuts the cheap edge instead.',
  },
  {
    id: 'resnet18',
    title: 'ResNet-18 (PyTorch)',
    file: 'models/resnet18.json',
    blurb: 'torchvision’s ResNet-18 exported from PyTorch: conv → batch-norm → ReLU and residual adds.',
  },
  {
    id: 'mobilenet-v2',
    title: 'MobileNetV2 (PyTorch)',
    file: 'models/mobilenet-v2.json',
    blurb: 'Inverted residuals from PyTorch: depthwise convs, batch-norm and ReLU6.',
  },
  {
    id: 'bert-layer',
    title: 'BERT encoder layer (PyTorch)',
    file: 'models/bert-layer.json',
    blurb: 'Self-attention, LayerNorm and a GELU MLP, BERT-base sized, exported from PyTorch.',
  },
  {
    id: 'mlp-gelu',
    title: 'MLP with GELU (PyTorch)',
    file: 'models/mlp-gelu.json',
    blurb: 'Three Linear layers (matmul + bias add) with GELU between them, exported from PyTorch.',
  },
];

export const DEFAULT_EXAMPLE = 'transformer-mlp';

// The graph file of a gallery entry, relative to examples/.
export function exampleFile(entry) {
  return entry.file ?? `${entry.id}.json`;
}

// The gallery entry for an id, or undefined.
export function findExample(id) {
  return GALLERY.find((e) => e.id === id);
}
