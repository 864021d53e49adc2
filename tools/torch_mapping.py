"""torch_mapping.py — the table from torch.fx nodes to Fusion Playground op kinds (used by torch_export.py).

Contract: module_rule(module) and function_rule(node) say how one fx node becomes ops: a Rule(kind, params,
how) where `how` is one of
  'op'       one op of `kind` reading the node's tensor arguments (then the module's `params`, in that order);
  'linear'   a `matmul` reading (x, weight) and, when there is a bias, an `add` reading (matmul, bias);
  'elide'    no op: the node's value is its first tensor argument (Dropout, Identity, contiguous, …);
  'cast'     `cast`, or elided when the output dtype equals the input dtype;
  'constant' a `constant` source (a tensor made inside forward from no tensor data: zeros, ones, arange, …);
  'getitem'  tuple element → that element's op; tensor[index] → `slice` (`gather` when an index is a tensor);
  'opaque'   one `opaque` op labelled with the torch target (anything not in the table).
ELEMENTWISE lists the core's elementwise kinds, for the operand rule of torch_export.py.
Keys are exact: a module's own class (not a subclass: a subclass may change forward), a function's or method's
`__name__` when it comes from torch, operator or builtins. The human-readable table is in the header of
torch_export.py and in docs/torch_export.md; tests/python/test_torch_export.py covers every row.
"""
from __future__ import annotations

from typing import NamedTuple

from torch import nn


class Rule(NamedTuple):
    kind: str | None
    how: str = 'op'
    params: tuple[str, ...] = ()


def _rules(kind, names, how='op', params=()):
    return {name: Rule(kind, how, params) for name in names.split()}


# --- modules (call_module), by class -----------------------------------------------------------------------
_CONV = ('weight', 'bias')
MODULES = {
    **{cls: Rule('conv', 'op', _CONV) for cls in (nn.Conv1d, nn.Conv2d, nn.Conv3d, nn.ConvTranspose1d,
                                                  nn.ConvTranspose2d, nn.ConvTranspose3d)},
    nn.Linear: Rule('matmul', 'linear', ('weight', 'bias')),
    **{cls: Rule('batch_norm', 'op', ('weight', 'bias', 'running_mean', 'running_var'))
       for cls in (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d)},
    nn.LayerNorm: Rule('layer_norm', 'op', ('weight', 'bias')),
    nn.Embedding: Rule('gather', 'op', ('weight',)),
    nn.ReLU: Rule('relu'), nn.ReLU6: Rule('clamp'), nn.Hardtanh: Rule('clamp'), nn.GELU: Rule('gelu'),
    nn.SiLU: Rule('silu'), nn.Sigmoid: Rule('sigmoid'), nn.Tanh: Rule('tanh'), nn.LeakyReLU: Rule('leaky_relu'),
    nn.Softplus: Rule('softplus'), nn.Softmax: Rule('softmax'),
    **{cls: Rule('max_pool') for cls in (nn.MaxPool1d, nn.MaxPool2d, nn.MaxPool3d, nn.AdaptiveMaxPool1d,
                                         nn.AdaptiveMaxPool2d, nn.AdaptiveMaxPool3d)},
    **{cls: Rule('avg_pool') for cls in (nn.AvgPool1d, nn.AvgPool2d, nn.AvgPool3d, nn.AdaptiveAvgPool1d,
                                         nn.AdaptiveAvgPool2d, nn.AdaptiveAvgPool3d)},
    nn.Flatten: Rule('reshape'), nn.Unflatten: Rule('reshape'),
    **{cls: Rule('pad') for cls in (nn.ZeroPad2d, nn.ConstantPad1d, nn.ConstantPad2d, nn.ConstantPad3d,
                                    nn.ReflectionPad1d, nn.ReflectionPad2d, nn.ReplicationPad1d,
                                    nn.ReplicationPad2d, nn.ReplicationPad3d)},
    **{cls: Rule(None, 'elide') for cls in (nn.Identity, nn.Dropout, nn.Dropout1d, nn.Dropout2d, nn.Dropout3d,
                                            nn.AlphaDropout, nn.FeatureAlphaDropout)},
}

# --- functions (call_function) and methods (call_method), by name ---------------------------------------
FUNCTIONS = {
    **_rules('add', 'add iadd add_'), **_rules('sub', 'sub isub rsub sub_ subtract'),
    **_rules('mul', 'mul imul mul_ multiply'), **_rules('div', 'truediv itruediv div div_ true_divide divide'),
    **_rules('pow', 'pow ipow pow_'), **_rules('neg', 'neg negative'), **_rules('abs', 'abs absolute'),
    **_rules('exp', 'exp exp_'), **_rules('log', 'log'), **_rules('sqrt', 'sqrt'), **_rules('rsqrt', 'rsqrt'),
    **_rules('relu', 'relu relu_'), **_rules('clamp', 'relu6 hardtanh hardtanh_ clamp clamp_ clip'),
    **_rules('gelu', 'gelu'), **_rules('silu', 'silu'), **_rules('sigmoid', 'sigmoid sigmoid_'),
    **_rules('tanh', 'tanh tanh_'), **_rules('erf', 'erf'), **_rules('reciprocal', 'reciprocal'),
    **_rules('square', 'square'), **_rules('sin', 'sin'), **_rules('cos', 'cos'), **_rules('floor', 'floor'),
    **_rules('ceil', 'ceil'), **_rules('round', 'round'), **_rules('sign', 'sign'),
    **_rules('softplus', 'softplus'), **_rules('leaky_relu', 'leaky_relu leaky_relu_'),
    **_rules('max', 'maximum'), **_rules('min', 'minimum'), **_rules('mod', 'mod fmod remainder'),
    **_rules('equal', 'eq'), **_rules('less', 'lt'), **_rules('greater', 'gt'),
    **_rules('logical_not', 'logical_not invert'), **_rules('logical_and', 'logical_and and_'),
    **_rules('logical_or', 'logical_or or_'), **_rules('where', 'where masked_fill masked_fill_'),
    **_rules('matmul', 'matmul mm bmm'), **_rules('matmul', 'linear', 'linear'),
    **_rules('conv', 'conv1d conv2d conv3d conv_transpose1d conv_transpose2d conv_transpose3d'),
    **_rules('softmax', 'softmax'), **_rules('layer_norm', 'layer_norm'), **_rules('batch_norm', 'batch_norm'),
    **_rules('gather', 'embedding gather index_select take_along_dim'),
    **_rules('scatter', 'scatter scatter_add index_put'), **_rules('cumsum', 'cumsum'), **_rules('sort', 'sort'),
    **_rules('reduce_sum', 'sum'), **_rules('reduce_mean', 'mean'), **_rules('reduce_max', 'amax'),
    **_rules('reduce_min', 'amin'), **_rules('reduce_prod', 'prod'),
    **_rules('reshape', 'flatten unflatten view reshape view_as reshape_as squeeze unsqueeze'),
    **_rules('transpose', 'permute transpose t swapaxes swapdims movedim'),
    **_rules('broadcast', 'expand expand_as broadcast_to repeat tile'),
    **_rules('concat', 'cat concat concatenate stack'),
    **_rules('slice', 'split chunk unbind tensor_split narrow select'),
    **_rules('pad', 'pad'),
    **_rules('avg_pool', 'avg_pool1d avg_pool2d avg_pool3d adaptive_avg_pool1d adaptive_avg_pool2d '
                         'adaptive_avg_pool3d'),
    **_rules('max_pool', 'max_pool1d max_pool2d max_pool3d adaptive_max_pool1d adaptive_max_pool2d '
                         'adaptive_max_pool3d'),
    **_rules(None, 'dropout dropout1d dropout2d dropout3d alpha_dropout feature_alpha_dropout contiguous '
                   'clone detach', 'elide'),
    **_rules('cast', 'to type float half double bfloat16 int long bool', 'cast'),
    **_rules('constant', 'zeros ones full empty arange rand randn tensor zeros_like ones_like full_like '
                         'empty_like rand_like randn_like', 'constant'),
    **_rules(None, 'getitem', 'getitem'),
}

# The core's elementwise kinds (core/src/op_kind.cpp, category elementwise; tests/python checks they agree). An op
# of these kinds does not read a one-element tensor of model data (docs/torch_export.md, "Operands").
ELEMENTWISE = frozenset('neg abs exp log sqrt rsqrt relu gelu sigmoid tanh silu cast erf reciprocal square sin cos '
                        'floor ceil round sign logical_not softplus leaky_relu clamp identity batch_norm add sub mul '
                        'div max min pow mod equal less greater logical_and logical_or where'.split())

# torch.max / torch.min: elementwise with two tensors, a reduction otherwise.
_MAX_MIN = {'max': ('max', 'reduce_max'), 'min': ('min', 'reduce_min')}
# getattr(x, name) that yields a tensor.
_TENSOR_ATTRS = {'T': 'transpose', 'mT': 'transpose', 'H': 'transpose', 'mH': 'transpose'}
_TRUSTED_MODULES = ('_operator', 'operator', 'builtins', 'math')


def target_name(node) -> str:
    """The torch target of a node as people write it: 'torch.nn.functional.relu', 'Tensor.view', 'add'."""
    if node.op == 'call_method':
        return f'Tensor.{node.target}'
    target = node.target
    module = getattr(target, '__module__', None) or ''
    name = getattr(target, '__name__', None) or str(target)
    if module in ('torch._C._VariableFunctions', 'torch._C._nn'):
        module = 'torch' if module.endswith('Functions') else 'torch.nn.functional'
    return f'{module}.{name}' if module and module != 'builtins' else name


def module_class_name(module) -> str:
    cls = type(module)
    return f'{cls.__module__}.{cls.__qualname__}'


def module_rule(module) -> Rule:
    return MODULES.get(type(module), Rule('opaque', 'opaque'))


def _trusted(target) -> bool:
    module = getattr(target, '__module__', None) or ''
    return module == 'torch' or module.startswith('torch.') or module in _TRUSTED_MODULES


def function_rule(node, tensor_arg_count: int) -> Rule:
    """The rule for a call_function or call_method node with `tensor_arg_count` tensor arguments."""
    if node.op == 'call_function' and not _trusted(node.target):
        return Rule('opaque', 'opaque')
    name = node.target if node.op == 'call_method' else getattr(node.target, '__name__', '')
    if name == 'getattr' and len(node.args) > 1 and node.args[1] in _TENSOR_ATTRS:
        return Rule(_TENSOR_ATTRS[node.args[1]])
    if name in _MAX_MIN:
        elementwise, reduction = _MAX_MIN[name]
        return Rule(elementwise if tensor_arg_count >= 2 else reduction)
    return FUNCTIONS.get(name, Rule('opaque', 'opaque'))
