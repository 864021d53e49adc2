#!/usr/bin/env python3
"""make_gallery.py — writes the PyTorch gallery: examples/models/<id>.json (torch_export.py) and <id>.onnx.

Usage: /usr/bin/python3 tools/make_gallery.py [--out DIR] [ID ...]      (default: every model, into examples/models)

Contract: for each model of torch_models.GALLERY (random weights, seeded; nothing is downloaded) it writes
  <id>.json  export_module(model, x, dynamic=entry.dynamic) as torch_export.py prints it (named dimensions, with
             "dims" holding the traced sizes, when the entry names some);
  <id>.onnx  torch.onnx.export of the same model and input, made to describe the same computation:
             - the model stays in eval mode and is exported with training=PRESERVE, so BatchNormalization stays a
               node (EVAL mode would fold it into the Conv weights);
             - every parameter and buffer is set to distinct random values first, since the exporter
               de-duplicates equal initializers (fresh BatchNorm/LayerNorm weights are all ones) into Identity
               nodes;
             - GELU is one Gelu node (ONNX opset 20) instead of torch 1.13's Div/Erf/Add/Mul/Mul; the file then
               declares opset 20 (Gelu's opset; none of the other ops it uses changed meaning after 17);
             - opset 17 (LayerNormalization is one node from 17 on); ONNX passes Reshape's target, ReLU6's
               min/max and the attention scale as Constant inputs, which the importer makes part of their op
               (docs/onnx.md, "Operands that are part of the op"), as PyTorch does;
             - initializers become graph inputs without data (same names, types and shapes), so files stay small;
             - the entry's named dimensions are dynamic axes of the input `x`, and the output `out` takes the names
               the exported graph gives its output, so the ONNX importer finds the same names (the importer takes
               their values from the .json's "dims": tests/onnx/gallery-agreement.test.mjs).
It checks that the .onnx has no Identity node and stays under 300 KB, prints one line per model (op count,
sizes, export times), and changes nothing else. tests/onnx/gallery-agreement.test.mjs compares the two files;
tests/python/test_torch_export.py checks that the committed .json is what the exporter prints today.
"""
from __future__ import annotations

import sys

sys.dont_write_bytecode = True

import argparse  # noqa: E402
import io  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

import onnx  # noqa: E402
import torch  # noqa: E402
from torch.onnx import register_custom_op_symbolic  # noqa: E402
from torch.onnx.symbolic_helper import parse_args  # noqa: E402

import torch_models  # noqa: E402
from torch_export import example_input, export_module, to_json  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OPSET = 17
GELU_OPSET = 20
MAX_ONNX_BYTES = 300_000
SEED = 0


@parse_args('v', 's')
def _gelu(g, x, approximate='none'):
    if approximate != 'none':
        raise RuntimeError(f'make_gallery.py writes only exact GELU, not approximate={approximate!r}')
    return g.op('com.microsoft::Gelu', x)


def _randomize(model):
    """Distinct random values in every floating parameter and buffer (variances stay positive)."""
    with torch.no_grad():
        for name, tensor in [*model.named_parameters(), *model.named_buffers()]:
            if tensor.is_floating_point():
                tensor.copy_(torch.rand_like(tensor) + 0.5 if name.endswith('running_var') else torch.randn_like(tensor))


def _dynamic_axes(graph):
    """torch.onnx.export's dynamic_axes for the names the exported graph's input and output carry."""
    def named(op):
        return {k: d for k, d in enumerate(op['shape']) if isinstance(d, str)}
    x = next(op for op in graph['ops'] if op['name'] == 'x')
    out = next(op for op in graph['ops'] if op.get('output'))
    axes = {'x': named(x), 'out': named(out)}
    return {k: v for k, v in axes.items() if v} or None


def _onnx_bytes(model, x, opset, dynamic_axes):
    register_custom_op_symbolic('aten::gelu', _gelu, opset)
    gelu = any(isinstance(m, torch.nn.GELU) for m in model.modules())
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # PRESERVE with constant folding warns about training-mode models
        torch.onnx.export(model, (x,), buffer, opset_version=opset, training=torch.onnx.TrainingMode.PRESERVE,
                          do_constant_folding=True, input_names=['x'], output_names=['out'],
                          dynamic_axes=dynamic_axes, custom_opsets={'com.microsoft': 1} if gelu else None)
    return onnx.load_from_string(buffer.getvalue())


def _gelu_to_standard(proto):
    """com.microsoft Gelu → the standard Gelu of opset 20."""
    nodes = [n for n in proto.graph.node if n.domain == 'com.microsoft']
    if any(n.op_type != 'Gelu' for n in nodes):
        raise RuntimeError(f'unexpected com.microsoft ops: {sorted({n.op_type for n in nodes})}')
    for node in nodes:
        node.domain = ''
    imports = [o for o in proto.opset_import if o.domain != 'com.microsoft']
    del proto.opset_import[:]
    proto.opset_import.extend(imports)
    if nodes:
        next(o for o in proto.opset_import if o.domain in ('', 'ai.onnx')).version = GELU_OPSET


def _strip_weights(proto):
    """Initializers → graph inputs of the same name, element type and shape, without data."""
    graph = proto.graph
    for tensor in graph.initializer:
        graph.input.append(onnx.helper.make_tensor_value_info(tensor.name, tensor.data_type, list(tensor.dims)))
    del graph.initializer[:]


def make(model_id, out_dir):
    entry = torch_models.GALLERY[model_id]
    torch.manual_seed(SEED)
    model = entry.build()
    _randomize(model)
    x = example_input(entry.input_shape)
    started = time.perf_counter()
    graph = export_module(model, (x,), dynamic=entry.dynamic)
    json_seconds = time.perf_counter() - started
    started = time.perf_counter()
    proto = _onnx_bytes(model, x, OPSET, _dynamic_axes(graph))
    onnx_seconds = time.perf_counter() - started
    identities = [n.name for n in proto.graph.node if n.op_type == 'Identity']
    if identities:
        raise RuntimeError(f'{model_id}: the ONNX export de-duplicated weights into Identity nodes {identities[:3]}')
    _gelu_to_standard(proto)
    _strip_weights(proto)
    data = proto.SerializeToString()
    if len(data) > MAX_ONNX_BYTES:
        raise RuntimeError(f'{model_id}.onnx is {len(data)} bytes, over {MAX_ONNX_BYTES}')
    text = to_json(graph)
    (out_dir / f'{model_id}.json').write_text(text)
    (out_dir / f'{model_id}.onnx').write_bytes(data)
    print(f'{model_id}: {len(graph["ops"])} ops, {len(proto.graph.node)} ONNX nodes; json {len(text)} bytes in '
          f'{json_seconds:.2f} s, onnx {len(data)} bytes in {onnx_seconds:.2f} s')


def main(argv=None):
    p = argparse.ArgumentParser(prog='make_gallery.py', description='Write the PyTorch gallery models '
                                '(examples/models/<id>.json and .onnx).')
    p.add_argument('ids', nargs='*', metavar='ID',
                   help=f'models to write (default: all of {", ".join(torch_models.GALLERY)})')
    p.add_argument('--out', type=Path, default=ROOT / 'examples' / 'models', help='output folder')
    args = p.parse_args(argv)
    unknown = [i for i in args.ids if i not in torch_models.GALLERY]
    if unknown:
        p.error(f'unknown model {unknown[0]!r}; the gallery has {", ".join(torch_models.GALLERY)}')
    args.out.mkdir(parents=True, exist_ok=True)
    for model_id in args.ids or torch_models.GALLERY:
        make(model_id, args.out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
