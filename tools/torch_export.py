#!/usr/bin/env python3
"""torch_export.py — a torch.nn.Module and example inputs → a Fusion Playground graph (docs/design.md §2).

Usage (Debian's python3-torch; call /usr/bin/python3, which sees it):
  /usr/bin/python3 tools/torch_export.py resnet18 > resnet18.json        # a gallery model or a torchvision name
  /usr/bin/python3 tools/torch_export.py --module pkg.mod:Class --input-shape 1,3,224,224 [--input-dtype f32]
      [--leaf pkg.mod:Class ...]     # several inputs: repeat --input-shape (and --input-dtype) once per input
      [--dynamic batch=0 ...]        # named dimensions: NAME=DIM (that dim of every input) or NAME=INPUT:DIM
  from torch_export import export_module; graph = export_module(module, (x,))   # → {"ops": [...]}
  export_module(module, (x,), dynamic={'batch': 0})   # → {"dims": {"batch": 8}, "ops": [...]}

Contract: export_module traces the module with torch.fx (a symbolic_trace Tracer, plus: --leaf classes stay one
op, and `a, b = x.shape` works under Python 3.11), runs ShapeProp on the example inputs to learn each value's
shape and dtype, and maps every node to ops by the table below. A forward() argument becomes an `input` op named
after it; a parameter or buffer becomes an `input` source named after it ("layer1.0.conv1.weight"), emitted
right before its first reader (a tied weight is one source). Ops keep execution order; names are unique (module
ops take the module path, others the fx node name). Values that are not tensors (sizes, Python numbers,
asserts) are no ops: a scalar operand is part of its op (`x / 8` is one `div` reading x). The same holds for a
one-element tensor of model data (a parameter, buffer or constant) read by an op of an elementwise kind beside
another input: it is part of the op, not an input of it, and becomes no op unless something else reads it (the
operand rule of docs/onnx.md, which the ONNX importer follows too). The model's results carry "output": true. torch.nn layers are never traced into (fx's default), so MultiheadAttention or
TransformerEncoderLayer is one opaque op; a root module that is itself such a layer becomes one op named after its
class. Work is linear in the graph and nothing recurses over it. Errors are ExportError, naming the node or
argument and what to do. export_module does not change the module: call .eval() first (a BatchNorm in training
mode becomes `opaque`). Not done: in-place ops on a value read later (fx loses that dependency), control flow on
tensor values (fx cannot trace it: mark the module --leaf), forward(*args) (torch 1.13's fx cannot trace it under
Python 3.11).

Named dimensions (docs/design.md §16): `dynamic` (--dynamic NAME=DIM, repeatable) names dims of the inputs; every
dim of every value that follows them — found by running the model once more per name with that name's dims at
twice their size, the rule of torch_dims.py — carries the name, or the product of names it is ("batch*seq" after
a flatten, "2*seq" after a concat: the canonical product text of docs/design.md §16, no warning), or a derived
name with a warning for a size that follows a name but is no product of names (a strided window), and the graph
gets "dims": {name: traced size} for the names its shapes use (the factors of a product), first use first, so
that the plan at the defaults is the plan of the traced sizes. Without `dynamic` shapes are the example
inputs' numbers and the graph has no "dims". Warnings (derived names, values whose shape does not follow) go to
`warn` (export_module's argument; the command line prints them on stderr).

Mapping (torch_mapping.py holds it as data; docs/torch_export.md explains each row):
  Conv1d/2d/3d, ConvTranspose*, F.conv*        conv      reads x, weight (, bias) — one op
  Linear, F.linear                              matmul    reads x, weight; then `add` (name "<op>.bias_add")
                                                          reads the matmul and the bias, when there is one
  BatchNorm1d/2d/3d (eval), F.batch_norm        batch_norm reads x, weight, bias, running_mean, running_var
  LayerNorm, F.layer_norm                       layer_norm reads x, weight, bias
  Embedding, F.embedding, gather, index_select  gather
  ReLU GELU SiLU Sigmoid Tanh LeakyReLU Softplus relu gelu silu sigmoid tanh leaky_relu softplus
  ReLU6, Hardtanh, clamp, clip                  clamp
  + - * / ** and torch's add sub mul div pow neg abs exp log sqrt rsqrt erf reciprocal square sin cos floor
      ceil round sign maximum minimum fmod eq lt gt logical_* where masked_fill   their elementwise kind
  matmul, @, mm, bmm                            matmul
  Softmax, softmax                              softmax
  MaxPool*, AdaptiveMaxPool*, max_pool*         max_pool
  AvgPool*, AdaptiveAvgPool*, avg_pool*         avg_pool
  sum mean amax amin prod; max/min with one tensor  reduce_sum reduce_mean reduce_max reduce_min reduce_prod
  Flatten, Unflatten, flatten view reshape squeeze unsqueeze view_as reshape_as   reshape
  permute transpose t swapaxes movedim .T .mT   transpose
  expand expand_as broadcast_to repeat tile     broadcast
  cat concat stack                              concat
  split chunk unbind tensor_split narrow select; x[index]   slice (one op per piece); x[tensor] → gather
  pad, ZeroPad2d, ConstantPad*, ReflectionPad*, ReplicationPad*   pad
  cumsum, sort, scatter, scatter_add, index_put cumsum, sort, scatter
  to float half double int long bool type       cast (no op when the dtype does not change)
  zeros ones full arange rand randn tensor *_like   constant (a source: no tensor data is read)
  Dropout*, Identity, F.dropout, contiguous, clone, detach   no op: the value is the op's input (ONNX export
                                                          in eval mode drops Dropout too)
  anything else (modules, functions, methods)   opaque, named after the node and labelled with the torch
                                                target ("label": "torch.nn.functional.hardswish"), reading the
                                                node's tensor arguments and (modules) all their parameters and
                                                buffers
A node whose result is a tuple (split, torch.max(x, dim), an opaque module) gets one op per tensor in it, named
"<node>.<i>" (only the pieces read with x[i] when that is all that reads it); x[i] is then the i-th op.
Tested by tests/python/test_torch_export.py; the gallery's agreement with the ONNX importer by
tests/onnx/gallery-agreement.test.mjs.
"""
from __future__ import annotations

import sys

sys.dont_write_bytecode = True  # run from a checkout: leave no __pycache__ beside the tools

import argparse  # noqa: E402
import dis  # noqa: E402
import importlib  # noqa: E402
import importlib.util  # noqa: E402
import inspect  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import operator  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

import torch  # noqa: E402
from torch import fx  # noqa: E402
from torch.fx.passes.shape_prop import ShapeProp, TensorMetadata, _extract_tensor_metadata  # noqa: E402

from torch_dims import dim_names, name_dims, parse_dynamic  # noqa: E402
from torch_errors import ExportError  # noqa: E402
from torch_mapping import ELEMENTWISE, Rule, function_rule, module_class_name, module_rule, target_name  # noqa: E402


DTYPES = {torch.float32: 'f32', torch.float16: 'f16', torch.bfloat16: 'bf16', torch.float64: 'f64',
          torch.int8: 'i8', torch.int16: 'i16', torch.int32: 'i32', torch.int64: 'i64', torch.uint8: 'u8',
          torch.bool: 'bool'}
DTYPE_BY_NAME = {name: dtype for dtype, name in DTYPES.items()}


# --- stage 1: trace ---------------------------------------------------------------------------------------
def _iter_proxy(self):
    """`a, b = proxy` (also under Python 3.11): fx.Proxy finds the UNPACK_SEQUENCE that called it by indexing
    the instruction list with f_lasti // 2, which 3.11's inline caches break; this matches the offset."""
    frame = inspect.currentframe().f_back
    inst = next((i for i in dis.get_instructions(frame.f_code) if i.offset == frame.f_lasti), None)
    if inst is not None and inst.opname == 'UNPACK_SEQUENCE':
        return (self[i] for i in range(inst.argval))
    return self.tracer.iter(self)


class _Attribute(fx.proxy.Attribute):
    """fx's lazy `proxy.name` value (x.shape, …), unpackable under Python 3.11."""

    __iter__ = _iter_proxy


class _Proxy(fx.Proxy):
    """fx.Proxy, unpackable under Python 3.11, whose attributes are _Attribute."""

    __iter__ = _iter_proxy

    def __getattr__(self, name):
        return _Attribute(self, name)


class _Tracer(fx.Tracer):
    """torch.fx's default tracer, keeping `leaf_classes` whole and making _Proxy values."""

    def __init__(self, leaf_classes=()):
        super().__init__()
        self.leaf_classes = tuple(leaf_classes)

    def is_leaf_module(self, m, qualname):
        return isinstance(m, self.leaf_classes) or super().is_leaf_module(m, qualname)

    def proxy(self, node):
        return _Proxy(node, self)


def _whole(module):
    """A GraphModule that calls `module` as one op: for a root the tracer keeps whole (a torch.nn layer or a
    leaf class), which fx would otherwise trace into. The op is named after the class."""
    name = type(module).__name__
    root = torch.nn.Module()
    root.add_module(name, module)
    graph = fx.Graph()
    params = inspect.signature(module.forward).parameters.values()
    args = [graph.placeholder(p.name) for p in params if p.default is p.empty and p.kind in
            (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    graph.output(graph.call_module(name, tuple(args)))
    return fx.GraphModule(root, graph)


def _check_traceable(module):
    params = inspect.signature(module.forward).parameters.values()
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
        raise ExportError(f'{type(module).__name__}.forward takes *args or **kwargs, which torch.fx (torch 1.13) '
                          'cannot trace under Python 3.11: give forward() one named argument per input')


def _trace(module, leaf_classes):
    tracer = _Tracer(leaf_classes)
    if tracer.is_leaf_module(module, ''):
        return _whole(module)
    _check_traceable(module)
    try:
        graph = tracer.trace(module)
    except Exception as e:  # torch raises many kinds; all mean "this Python could not be followed"
        hint = ('torch.fx follows forward() symbolically, so it cannot take a branch or loop that depends on a '
                'tensor value' if isinstance(e, fx.proxy.TraceError) else 'torch.fx failed while following '
                'forward()')
        raise ExportError(f'torch.fx could not trace {type(module).__name__}: {type(e).__name__}: {e}. {hint}: '
                          'keep the offending submodule whole with --leaf pkg.mod:Class (leaf_modules=) — it '
                          'becomes one opaque op — or export a part of the model.') from e
    return fx.GraphModule(tracer.root, graph)


# --- stage 2: shapes ----------------------------------------------------------------------------------------
class _ShapeProp(ShapeProp):
    """ShapeProp that reports a failing node as an ExportError instead of printing a traceback."""

    def run_node(self, n):
        try:
            result = fx.Interpreter.run_node(self, n)
        except Exception as e:
            raise ExportError(f'running the model on the example inputs failed at node "{n.name}" '
                              f'({_describe_target(self.module, n)}): {e}') from e
        meta = fx.node.map_aggregate(
            result, lambda v: _extract_tensor_metadata(v) if isinstance(v, torch.Tensor) else v)
        if _holds_tensor(meta):
            n.meta['tensor_meta'] = meta
        return result


def _describe_target(gm, node):
    if node.op == 'call_module':
        return module_class_name(gm.get_submodule(node.target))
    return target_name(node) if node.op in ('call_function', 'call_method') else node.op


def _check_inputs(gm, inputs):
    wanted = [n for n in gm.graph.nodes if n.op == 'placeholder']
    required = [n for n in wanted if not n.args]  # a placeholder's args hold its default value
    if not required and not wanted:
        raise ExportError('forward() takes no tensor arguments; there is nothing to trace')
    if not len(required) <= len(inputs) <= len(wanted):
        names = ', '.join(n.name for n in wanted)
        raise ExportError(f'forward({names}) needs {len(required)} example input(s), got {len(inputs)}')
    for i, x in enumerate(inputs):
        if not isinstance(x, torch.Tensor):
            raise ExportError(f'example input {i} ({wanted[i].name}) is a {type(x).__name__}, not a tensor')


# --- stage 3: ops ---------------------------------------------------------------------------------------------
def _leaves(obj):
    """The leaves of nested tuples, lists, dicts and slices, in order (an explicit stack, no recursion)."""
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, TensorMetadata) or not isinstance(item, (tuple, list, dict, slice)):
            yield item
            continue
        if isinstance(item, dict):
            parts = list(item.values())
        elif isinstance(item, slice):
            parts = [item.start, item.stop, item.step]
        else:
            parts = list(item)
        stack.extend(reversed(parts))


def _used_parts(node):
    """The keys of a node's tuple or dict result that later nodes take as x[key]; None when the result is
    used whole, or not at all (then every part is an op, so that nothing disappears)."""
    keys = set()
    for user in node.users:
        if user.op != 'call_function' or user.target is not operator.getitem or user.args[0] is not node or \
                not isinstance(user.args[1], (int, str)):
            return None
        if user.users:  # `out, _ = f(x)`: fx keeps a getitem for `_` that nothing reads
            keys.add(user.args[1])
    return keys or None


def _holds_tensor(obj):
    return any(isinstance(leaf, TensorMetadata) for leaf in _leaves(obj))


def _dtype_of(op):
    return op.get('dtype', op.get('dtype_bytes'))


def _shape_dtype(meta):
    dtype = DTYPES.get(meta.dtype)
    size = {'dtype': dtype} if dtype else {'dtype_bytes': torch.empty((), dtype=meta.dtype).element_size()}
    return {'shape': [d if isinstance(d, str) else int(d) for d in meta.shape], **size}


def _numel(shape):
    """The element count, or None when a dimension is a name."""
    return None if any(isinstance(d, str) for d in shape) else math.prod(shape)


class _Ops:
    """The op list being built: unique names, and one source per parameter tensor."""

    def __init__(self):
        self.ops = []
        self._taken = set()
        self._suffix = {}
        self._sources = {}
        self.model_data = set()  # names of the sources made for parameters, buffers and traced-in tensors

    def _unique(self, base):
        name = base
        while name in self._taken:
            self._suffix[base] = self._suffix.get(base, 0) + 1
            name = f'{base}_{self._suffix[base]}'
        self._taken.add(name)
        return name

    def add(self, base, kind, inputs, meta, label=None):
        op = {'name': self._unique(base), 'kind': kind}
        if inputs:
            op['inputs'] = [self.ops[i]['name'] for i in inputs]
        op.update(_shape_dtype(meta))
        if label:
            op['label'] = label
        self.ops.append(op)
        return len(self.ops) - 1

    def source(self, name, tensor, kind='input'):
        if id(tensor) not in self._sources:
            self._sources[id(tensor)] = self.add(name, kind, [], _extract_tensor_metadata(tensor))
            self.model_data.add(self.ops[-1]['name'])
        return self._sources[id(tensor)]

    def is_static(self, op):
        """Known before the model runs: model data, or a tensor made in forward from none (a `constant`)."""
        return op['kind'] == 'constant' or op['name'] in self.model_data


class _Exporter:
    """Turns one traced, shape-propagated GraphModule into ops, node by node in graph order."""

    def __init__(self, gm, module):
        self.gm = gm
        self.out = _Ops()
        self.values = {}  # fx node → op index | nested tuple/list/dict of those | None (not a tensor)
        # The model's own parameters and buffers (GraphModule also makes traced-in tensor constants buffers).
        self.state_ids = {id(t) for t in (*module.parameters(), *module.buffers())}

    def run(self):
        for node in self.gm.graph.nodes:
            self.values[node] = self.node(node)
        return {'ops': _without_scalar_operands(self.out)}

    def refs(self, obj):
        """Op indices of the tensors among a node's arguments, in order."""
        found = []
        for leaf in _leaves(obj):
            if isinstance(leaf, fx.Node):
                found.extend(v for v in _leaves(self.values[leaf]) if isinstance(v, int))
        return found

    def node(self, node):
        meta = node.meta.get('tensor_meta')
        if node.op == 'output':
            for op in self.refs(node.args):
                self.out.ops[op]['output'] = True
            return None
        if meta is None:
            return None  # sizes, numbers, asserts: not tensors, not ops
        if node.op == 'placeholder':
            return self.out.add(node.name, 'input', [], meta)
        if node.op == 'get_attr':
            tensor = _fetch_attr(self.gm, node.target)
            return self.out.source(node.target, tensor, 'input' if id(tensor) in self.state_ids else 'constant')
        refs = self.refs((node.args, node.kwargs))
        if node.op == 'call_module':
            return self.module_node(node, meta, refs)
        return self.apply(function_rule(node, len(refs)), node, node.name, meta, refs, [], target_name(node))

    def module_node(self, node, meta, refs):
        module = self.gm.get_submodule(node.target)
        rule = module_rule(module)
        if rule.kind == 'batch_norm' and (module.training or module.running_mean is None):
            rule = Rule('opaque', 'opaque')  # batch statistics: a reduction, not the eval-mode affine map
        if rule.how == 'opaque':
            named = [*module.named_parameters(), *module.named_buffers()]
        else:
            named = [(p, getattr(module, p, None)) for p in rule.params]
        params = [self.out.source(f'{node.target}.{p}', t) for p, t in named if isinstance(t, torch.Tensor)]
        return self.apply(rule, node, node.target, meta, refs, params, module_class_name(module))

    def apply(self, rule, node, base, meta, refs, params, target):
        how = rule.how if refs or rule.how not in ('elide', 'cast') else 'constant'
        if how == 'elide':
            return self.values_of_first_tensor(node)
        if how == 'cast' and isinstance(meta, TensorMetadata) and _dtype_of(self.out.ops[refs[0]]) == \
                _dtype_of(_shape_dtype(meta)):
            return refs[0]
        if how == 'linear':
            return self.linear(base, meta, refs + params)
        if how == 'getitem':
            return self.getitem(node, base, meta, refs)
        if how == 'constant':
            return self.emit(base, 'constant', [], meta)
        kept = _used_parts(node)
        if how == 'opaque':
            return self.emit(base, 'opaque', refs + params, meta, kept, label=target)
        return self.emit(base, rule.kind, refs + params, meta, kept)

    def values_of_first_tensor(self, node):
        for leaf in _leaves((node.args, node.kwargs)):
            if isinstance(leaf, fx.Node) and self.values[leaf] is not None:
                return self.values[leaf]
        return None

    def emit(self, base, kind, inputs, meta, kept=None, label=None):
        """One op per tensor in `meta` (one op for a plain tensor result), mirroring its nesting; each op is
        named base (+ '.<key>' per level) and carries `label`. At the top level only the `kept` keys (None: all)."""
        if isinstance(meta, TensorMetadata):
            return self.out.add(base, kind, inputs, meta, label)
        parts = list(meta.items() if isinstance(meta, dict) else enumerate(meta))
        wanted = None if kept is None else {k % len(parts) if isinstance(k, int) else k for k in kept}
        built = {key: self.emit(f'{base}.{key}', kind, inputs, part, label=label)  # one call per nesting level
                 if _holds_tensor(part) and (wanted is None or key in wanted) else None for key, part in parts}
        return built if isinstance(meta, dict) else list(built.values())

    def linear(self, base, meta, inputs):
        x, weight, *bias = inputs
        product = self.out.add(base, 'matmul', [x, weight], meta)
        if not bias:
            return product
        return self.out.add(f'{self.out.ops[product]["name"]}.bias_add', 'add', [product, bias[0]], meta)

    def getitem(self, node, base, meta, refs):
        container, index = node.args
        held = self.values.get(container) if isinstance(container, fx.Node) else None
        if isinstance(held, (list, dict)) and isinstance(index, (int, slice, str)):
            return held[index]
        index_refs = refs[1:]
        return self.emit(base, 'gather' if index_refs else 'slice', refs, meta)


def _without_scalar_operands(out):
    """The ops, where an op of an elementwise kind no longer reads a one-element static tensor while it reads
    something else (as PyTorch passes `x / 8`), and a source that nothing reads any more is gone."""
    scalar = {op['name'] for op in out.ops if out.is_static(op) and _numel(op['shape']) == 1}
    folded = set()
    for op in out.ops:
        inputs = op.get('inputs', [])
        if op['kind'] in ELEMENTWISE and not all(name in scalar for name in inputs):
            folded.update(name for name in inputs if name in scalar)
            op['inputs'] = [name for name in inputs if name not in scalar]
    read = {name for op in out.ops for name in op.get('inputs', [])}
    return [op for op in out.ops if op['name'] not in folded or op['name'] in read or op.get('output')]


def _fetch_attr(gm, target):
    value = gm
    for part in target.split('.'):
        value = getattr(value, part)
    return value


def _with_dims(graph, defaults):
    """{"dims": ..., "ops": ...} with the default of each name the ops use, first use first; the graph as it is
    when they use none."""
    used = dict.fromkeys(n for op in graph['ops'] for d in op['shape'] for n in dim_names(d))
    return {'dims': {name: defaults[name] for name in used}, **graph} if used else graph


def export_module(module, example_inputs, *, leaf_modules=(), dynamic=None, warn=None):
    """{"ops": [...]} (and "dims" with `dynamic`) for `module` run on `example_inputs` (a tensor or a tuple of
    tensors); see the header."""
    if not isinstance(module, torch.nn.Module):
        raise ExportError(f'export_module needs a torch.nn.Module, got {type(module).__name__}')
    inputs = (example_inputs,) if isinstance(example_inputs, torch.Tensor) else tuple(example_inputs)
    gm = _trace(module, leaf_modules)
    _check_inputs(gm, inputs)
    with torch.no_grad():
        _ShapeProp(gm).propagate(*inputs)
    defaults = name_dims(gm, inputs, dynamic, warn or (lambda text: None), _ShapeProp)
    return _with_dims(_Exporter(gm, module).run(), defaults)


def to_json(graph):
    """The graph as text, one op per line (the layout of examples/*.json; graph-text.js formatGraph's too)."""
    lines = ',\n'.join(f'  {json.dumps(op, separators=(", ", ": "))}' for op in graph['ops'])
    dims = f'"dims": {json.dumps(graph["dims"], separators=(", ", ": "))}, ' if 'dims' in graph else ''
    return '{' + dims + '"ops": [\n' + lines + '\n]}\n'


# --- command line ---------------------------------------------------------------------------------------------
def _load_class(spec, flag):
    """'pkg.mod:Class' or 'path/to/file.py:Class' → the class."""
    module_name, sep, class_name = spec.rpartition(':')
    if not sep or not module_name or not class_name:
        raise ExportError(f'{flag} {spec!r}: write it as pkg.mod:Class or path/to/file.py:Class')
    try:
        if module_name.endswith('.py'):
            loader = importlib.util.spec_from_file_location(Path(module_name).stem, module_name)
            if loader is None:
                raise ImportError(f'no such file {module_name}')
            mod = importlib.util.module_from_spec(loader)
            loader.loader.exec_module(mod)
        else:
            sys.path.insert(0, '.')
            mod = importlib.import_module(module_name)
    except (ImportError, OSError) as e:
        raise ExportError(f'{flag} {spec!r}: cannot import {module_name}: {e}') from e
    cls = getattr(mod, class_name, None)
    if not isinstance(cls, type):
        raise ExportError(f'{flag} {spec!r}: {module_name} has no class {class_name}')
    return cls


def _parse_shape(text):
    try:
        shape = tuple(int(d) for d in text.split(','))
    except ValueError:
        shape = ()
    if not shape or any(d < 0 for d in shape):
        raise ExportError(f'--input-shape {text!r}: write non-negative integers separated by commas, e.g. 1,3,224,224')
    return shape


def example_input(shape, dtype_name='f32'):
    """A deterministic example tensor: normal floats, zeros for integer and bool inputs (valid indices)."""
    dtype = DTYPE_BY_NAME[dtype_name]
    return torch.randn(shape, dtype=dtype) if dtype.is_floating_point else torch.zeros(shape, dtype=dtype)


def _user_model(args):
    cls = _load_class(args.module, '--module')
    if not args.input_shape:
        raise ExportError('--module needs --input-shape (e.g. --input-shape 1,3,224,224), once per forward() input')
    try:
        module = cls()
    except TypeError as e:
        raise ExportError(f'--module {args.module!r}: {cls.__name__}() must construct without arguments: {e}') from e
    if not isinstance(module, torch.nn.Module):
        raise ExportError(f'--module {args.module!r}: {cls.__name__} is not a torch.nn.Module')
    return module, [_parse_shape(s) for s in args.input_shape], parse_dynamic(args.dynamic)


def _named_model(args):
    """The module, input shapes and named dims of a gallery or torchvision model (the gallery's own dims unless
    --dynamic is given)."""
    import torch_models
    name = args.model
    if name in torch_models.GALLERY:
        entry = torch_models.GALLERY[name]
        module, shapes, dynamic = entry.build(), [entry.input_shape], entry.dynamic
    else:
        module, shapes, dynamic = torch_models.torchvision_model(name), [(1, 3, 224, 224)], {}
    shapes = [_parse_shape(s) for s in args.input_shape] if args.input_shape else shapes
    return module, shapes, parse_dynamic(args.dynamic) if args.dynamic else dynamic


def _parser():
    p = argparse.ArgumentParser(prog='torch_export.py', description='Export a PyTorch model as a Fusion '
                                'Playground graph (JSON on standard output). See docs/torch_export.md.')
    p.add_argument('model', nargs='?', help='a gallery model (resnet18, mobilenet-v2, bert-layer, mlp-gelu) or '
                   'a torchvision model name (random weights; nothing is downloaded)')
    p.add_argument('--module', metavar='PKG.MOD:CLASS', help='export your own nn.Module class (built with Class())')
    p.add_argument('--input-shape', action='append', metavar='N,C,H,W', help='shape of a forward() input '
                   '(repeat for several inputs)')
    p.add_argument('--input-dtype', action='append', choices=sorted(DTYPE_BY_NAME), metavar='DTYPE',
                   help='dtype of each input: f32 (default), f16, bf16, f64, i64, i32, … (integers are zeros)')
    p.add_argument('--leaf', action='append', default=[], metavar='PKG.MOD:CLASS',
                   help='keep modules of this class as one opaque op instead of tracing into them')
    p.add_argument('--dynamic', action='append', default=[], metavar='NAME=[INPUT:]DIM',
                   help='name a dimension of the inputs (DIM of every input, or of INPUT, a forward() argument name '
                   'or position); the dims that follow it carry the name, and "dims" its traced size (repeatable)')
    return p


def main(argv=None):
    args = _parser().parse_args(argv)
    if bool(args.model) == bool(args.module):
        _parser().error('give either a model name or --module pkg.mod:Class')
    torch.manual_seed(0)
    try:
        module, shapes, dynamic = _user_model(args) if args.module else _named_model(args)
        dtypes = args.input_dtype or []
        if len(dtypes) > len(shapes):
            raise ExportError(f'{len(dtypes)} --input-dtype for {len(shapes)} input(s)')
        inputs = [example_input(s, dtypes[i] if i < len(dtypes) else 'f32') for i, s in enumerate(shapes)]
        leaves = [_load_class(spec, '--leaf') for spec in args.leaf]
        graph = export_module(module.eval(), tuple(inputs), leaf_modules=leaves, dynamic=dynamic,
                              warn=lambda text: print(f'torch_export.py: warning: {text}', file=sys.stderr))
    except ExportError as e:
        print(f'torch_export.py: error: {e}', file=sys.stderr)
        return 1
    sys.stdout.write(to_json(graph))
    return 0


if __name__ == '__main__':
    sys.exit(main())
