"""torch_dims.py — named dimensions for torch_export.py (docs/design.md §16): which dimensions of a traced model
follow a dynamic input dimension, found by running the model at two sizes.

Contract:
  parse_dynamic(specs) → {name: [(input, dim), ...]} from the command line's `--dynamic NAME=DIM` (dim DIM of
      every input that has it: input None) and `--dynamic NAME=INPUT:DIM` (one input, by forward() argument name
      or position); a name may be given several times. ExportError for a malformed spec or name.
  name_dims(gm, inputs, dynamic, warn, prop) → {name: default}, after the ShapeProp class `prop` ran on `inputs`
      (every node's tensor_meta holds the traced shapes): rewrites each tensor_meta so its shape holds names where
      the rule below says so, and returns the default of every name given or derived (its traced size). `dynamic` is
      parse_dynamic's form, or {name: DIM} / {name: [(input, dim)]} from Python. `warn(text)` gets one line per
      assumption. ExportError when a spec names no input or dim, a name's dims differ in traced size, or the model
      does not run at the probe size.

The rule. Each name n has a traced size s_n (that of every dim it marks; at least 1). ShapeProp runs once more per
name, with every dim it marks at the probe size 2·s_n (the other names at their traced sizes; inputs are zeros of
their dtype). A dimension of a value, traced as v, whose probe sizes are w_n, is the monomial c·Π n^e_n when for
every name w_n = v·2^e_n (e_n ≥ 0) and c = v / Π s_n^e_n is a whole number. That monomial is
  - the number v when no name appears (the dimension does not follow any input's named dim);
  - the name n when it is n alone (c = 1, e_n = 1);
  - else the product text of docs/design.md §16, in the core's canonical form: c first when it is not 1, then the
    names in ASCII order, repeated per power, joined by "*" (batch·seq → "batch*seq", 2·seq → "2*seq", seq² →
    "seq*seq"), as the ONNX importer writes a product. No warning and no default of its own: the core binds it to
    the product of its names' values, so it follows when they are bound otherwise (product_text).
A dimension that changes with a name but is no such monomial (a stride-2 window over a named length) gets a
derived name "<names>_dim" (default v, a warning; dims that behave alike share it). A value whose tensors or ranks
differ between the runs keeps its numbers, with a warning. A derived name does not follow when a name is bound
to another value at planning time (the warning says so). dim_names(d) gives the names a dimension uses (the
factors of a product).
Tested by tests/python/test_torch_export.py (DynamicTest).
"""
from __future__ import annotations

import re

import torch
from torch.fx.passes.shape_prop import TensorMetadata

from torch_errors import ExportError

NAME = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*$')
MAX_BASE = 48  # a longer derived name is "dim" (as in the ONNX importer's dim-names.js)


def product_text(coef, names):
    """c·Π names as a shape entry: a number without names, a name alone, else the canonical product text ("2*seq",
    "batch*seq"; names sorted by code point, which for these ASCII names is the core's byte order)."""
    if coef == 0 or not names:
        return coef
    if coef == 1 and len(names) == 1:
        return names[0]
    return '*'.join(([str(coef)] if coef != 1 else []) + sorted(names))


def dim_names(d):
    """The names a shape entry uses: [] for a number, the name, or the names a product multiplies."""
    return [f for f in d.split('*') if not f.isdigit()] if isinstance(d, str) else []


def parse_dynamic(specs):
    """['batch=0', 'seq=x:1', ...] → {'batch': [(None, 0)], 'seq': [('x', 1)]}."""
    dynamic = {}
    for spec in specs or []:
        match = re.fullmatch(r'([^=]+)=(?:([^:=]+):)?(\d+)', spec)
        if not match:
            raise ExportError(f'--dynamic {spec!r}: write NAME=DIM (that dim of every input) or NAME=INPUT:DIM '
                              '(INPUT a forward() argument name or position), e.g. --dynamic batch=0')
        name, which, dim = match.groups()
        if not NAME.match(name) or len(name) > 64:
            raise ExportError(f'--dynamic {spec!r}: a dimension name is letters, digits and _, not starting with a '
                              'digit, at most 64 characters (docs/design.md §16)')
        which = int(which) if which is not None and which.isdigit() else which
        dynamic.setdefault(name, []).append((which, int(dim)))
    return dynamic


def _positions(name, spec, inputs, arg_names):
    """(input index, dim) pairs a name marks."""
    entries = [(None, spec)] if isinstance(spec, int) else list(spec)
    found = []
    for which, dim in entries:
        if which is None:
            found += [(i, dim) for i, x in enumerate(inputs) if dim < x.dim()]
            continue
        i = which if isinstance(which, int) else (arg_names.index(which) if which in arg_names else -1)
        if not 0 <= i < len(inputs) or dim >= inputs[i].dim():
            raise ExportError(f'--dynamic {name}: input {which!r} has no dim {dim} (inputs: '
                              f'{", ".join(f"{a} {list(x.shape)}" for a, x in zip(arg_names, inputs))})')
        found.append((i, dim))
    if not found:
        raise ExportError(f'--dynamic {name}: no input has dim {entries[0][1]}')
    return found


def _traced_size(name, positions, inputs):
    sizes = {int(inputs[i].shape[d]) for i, d in positions}
    if len(sizes) != 1 or min(sizes) < 1:
        raise ExportError(f'--dynamic {name}: the dims it marks have traced sizes {sorted(sizes)}; they must be one '
                          'size, at least 1')
    return sizes.pop()


def _metas(meta):
    """The TensorMetadata in a node's result metadata, in order (the order of torch_export._leaves and _rename)."""
    if isinstance(meta, TensorMetadata):
        yield meta
    elif isinstance(meta, (tuple, list, dict)):
        for part in meta.values() if isinstance(meta, dict) else meta:
            yield from _metas(part)


def _shapes(gm):
    """{node: [traced shape of each tensor in its result, in order]}."""
    return {n: [tuple(int(d) for d in leaf.shape) for leaf in _metas(n.meta['tensor_meta'])]
            for n in gm.graph.nodes if 'tensor_meta' in n.meta}


def _probe(gm, inputs, name, positions, size, prop):
    """The shapes of every value when the dims of `name` are `size`."""
    probe = list(inputs)
    for i in {i for i, _ in positions}:
        shape = list(probe[i].shape)
        for j, d in positions:
            if j == i:
                shape[d] = size
        probe[i] = torch.zeros(shape, dtype=inputs[i].dtype)
    saved = {n: n.meta.get('tensor_meta') for n in gm.graph.nodes}
    try:
        with torch.no_grad():
            prop(gm).propagate(*probe)
    except ExportError as e:
        raise ExportError(f'--dynamic {name}: with its dims at {size} (the probe size, twice the traced size), {e}; '
                          'the model may need that size fixed (leave --dynamic out for it)') from e
    shapes = _shapes(gm)
    for n, meta in saved.items():
        n.meta.pop('tensor_meta', None)
        if meta is not None:
            n.meta['tensor_meta'] = meta
    return shapes


class _Namer:
    """Derived names: one per behaviour, unique among all names."""

    def __init__(self, sizes, warn):
        self.sizes, self.warn, self.by_key, self.defaults = sizes, warn, {}, dict(sizes)

    def derive(self, key, base, value, what):
        if key not in self.by_key:
            base = base if len(base) <= MAX_BASE else 'dim'
            name, k = base, 2
            while name in self.defaults:
                name, k = f'{base}_{k}', k + 1
            self.by_key[key], self.defaults[name] = name, value
            self.warn(f"dimension '{name}' stands for {what}, which one name cannot say; \"dims\" gives it {value} "
                      '(its traced size), and it does not follow when the names it comes from are bound otherwise')
        return self.by_key[key]

    def dim(self, v, probes):
        """One dimension, traced as v, with probe sizes {name: w}."""
        powers = {}
        for n, w in probes.items():
            e = 0
            while v and w > v * 2 ** e and e < 8:
                e += 1
            if w != v * 2 ** e or (v == 0 and w != 0):
                return self._changing(v, probes)
            if e:
                powers[n] = e
        names = sorted(n for n, e in powers.items() for _ in range(e))
        scale = 1
        for n in names:
            scale *= self.sizes[n]
        if v % scale:
            return self._changing(v, probes)
        return product_text(v // scale, names)

    def _changing(self, v, probes):
        moved = sorted(n for n, w in probes.items() if w != v)
        key = ('dim', v, tuple(sorted(probes.items())))
        what = f'a size that changes with {" and ".join(moved)} but is no whole multiple of ' + \
            ('it' if len(moved) == 1 else 'their product')
        return self.derive(key, f'{"_".join(moved)}_dim', v, what)


def _rename(meta, shapes):
    """meta with its TensorMetadata leaves' shapes taken in order from the iterator `shapes`."""
    if isinstance(meta, TensorMetadata):
        return meta._replace(shape=next(shapes))
    if isinstance(meta, dict):
        return {k: _rename(v, shapes) for k, v in meta.items()}
    if isinstance(meta, (tuple, list)):
        return type(meta)(_rename(v, shapes) for v in meta)
    return meta


def name_dims(gm, inputs, dynamic, warn, prop):
    """See the module header; `prop` is the ShapeProp class to run (torch_export._ShapeProp)."""
    if not dynamic:
        return {}
    arg_names = [n.name for n in gm.graph.nodes if n.op == 'placeholder']
    marks = {name: _positions(name, spec, inputs, arg_names) for name, spec in dynamic.items()}
    sizes = {name: _traced_size(name, pos, inputs) for name, pos in marks.items()}
    base = _shapes(gm)
    probes = {name: _probe(gm, inputs, name, pos, 2 * sizes[name], prop) for name, pos in marks.items()}
    namer = _Namer(sizes, warn)
    for node, shapes in base.items():
        runs = [probes[name].get(node) for name in marks]
        if any(r is None or [len(s) for s in r] != [len(s) for s in shapes] for r in runs):
            warn(f'value "{node.name}" has other tensors or ranks at the probe sizes; its shape keeps numbers')
            continue
        named = [tuple(namer.dim(v, {name: runs[j][t][k] for j, name in enumerate(marks)}) for k, v in enumerate(s))
                 for t, s in enumerate(shapes)]
        node.meta['tensor_meta'] = _rename(node.meta['tensor_meta'], iter(named))
    return namer.defaults
