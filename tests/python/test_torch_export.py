"""test_torch_export.py — tools/torch_export.py: every row of its mapping table, names, shapes and dtypes, tuple
results, unknown targets as opaque, errors, the command line, named dimensions (--dynamic, tools/torch_dims.py),
and the committed gallery being current.

Run: /usr/bin/python3 -B -m unittest discover -s tests/python -v    (Debian's python3-torch, python3-torchvision,
python3-onnx; tools/run-tests.mjs runs it as the `python` suite).
"""
import contextlib
import io
import json
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.dont_write_bytecode = True
ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / 'tools'))
sys.path.insert(0, str(HERE))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch import nn  # noqa: E402

import make_gallery  # noqa: E402
import sample_modules  # noqa: E402
import torch_dims  # noqa: E402
import torch_export  # noqa: E402
import torch_mapping  # noqa: E402
import torch_models  # noqa: E402
from torch_export import ExportError, export_module  # noqa: E402


class Wrap(nn.Module):
    """Calls one submodule `m` on its input (so the submodule is a call_module node named 'm')."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x):
        return self.m(x)


class Fn(nn.Module):
    """Applies `fn` (traced as Python) to its input; `state` holds parameters and buffers fn may read."""

    def __init__(self, fn, **state):
        super().__init__()
        self.fn = fn
        for name, value in state.items():
            if isinstance(value, nn.Parameter):
                self.register_parameter(name, value)
            else:
                self.register_buffer(name, value)

    def forward(self, x):
        return self.fn(self, x)


@torch.fx.wrap
def double_it(x):
    return x * 2


class CallsDoubleIt(nn.Module):
    def forward(self, x):
        return double_it(x)


def unpack_view(x):
    rows, cols = x.shape  # a Proxy unpacked: fx's own check fails under Python 3.11
    return x.view(rows, 2, cols // 2)


def export(module, *inputs):
    return export_module(module.eval(), inputs)['ops']


def computed(ops):
    """Kinds of the ops that are not sources, in order."""
    return [op['kind'] for op in ops if op.get('inputs')]


def by_name(ops):
    return {op['name']: op for op in ops}


def shape_of(dims):
    return {1: (1, 2, 8), 2: (1, 2, 8, 8), 3: (1, 2, 4, 4, 4)}[dims]


X = torch.randn(4, 6)
IDX = torch.tensor([[0, 1], [2, 3], [1, 1], [0, 5]])
S1, S2, S3 = shape_of(1), shape_of(2), shape_of(3)
# (module, input shape, kinds of the ops it becomes)
MODULE_CASES = [
    (nn.Conv1d(2, 3, 3), S1, ['conv']), (nn.Conv2d(2, 3, 3), S2, ['conv']), (nn.Conv3d(2, 3, 3), S3, ['conv']),
    (nn.ConvTranspose1d(2, 3, 3), S1, ['conv']), (nn.ConvTranspose2d(2, 3, 3), S2, ['conv']),
    (nn.ConvTranspose3d(2, 3, 3), S3, ['conv']), (nn.Linear(6, 3), (4, 6), ['matmul', 'add']),
    (nn.BatchNorm1d(2), S1, ['batch_norm']), (nn.BatchNorm2d(2), S2, ['batch_norm']),
    (nn.BatchNorm3d(2), S3, ['batch_norm']), (nn.LayerNorm(6), (4, 6), ['layer_norm']),
    (nn.ReLU(), (4, 6), ['relu']), (nn.ReLU6(), (4, 6), ['clamp']), (nn.Hardtanh(), (4, 6), ['clamp']),
    (nn.GELU(), (4, 6), ['gelu']), (nn.SiLU(), (4, 6), ['silu']), (nn.Sigmoid(), (4, 6), ['sigmoid']),
    (nn.Tanh(), (4, 6), ['tanh']), (nn.LeakyReLU(), (4, 6), ['leaky_relu']), (nn.Softplus(), (4, 6), ['softplus']),
    (nn.Softmax(dim=-1), (4, 6), ['softmax']),
    (nn.MaxPool1d(2), S1, ['max_pool']), (nn.MaxPool2d(2), S2, ['max_pool']), (nn.MaxPool3d(2), S3, ['max_pool']),
    (nn.AdaptiveMaxPool1d(1), S1, ['max_pool']), (nn.AdaptiveMaxPool2d(1), S2, ['max_pool']),
    (nn.AdaptiveMaxPool3d(1), S3, ['max_pool']),
    (nn.AvgPool1d(2), S1, ['avg_pool']), (nn.AvgPool2d(2), S2, ['avg_pool']), (nn.AvgPool3d(2), S3, ['avg_pool']),
    (nn.AdaptiveAvgPool1d(1), S1, ['avg_pool']), (nn.AdaptiveAvgPool2d(1), S2, ['avg_pool']),
    (nn.AdaptiveAvgPool3d(1), S3, ['avg_pool']),
    (nn.Flatten(), S2, ['reshape']), (nn.Unflatten(1, (2, 3)), (4, 6), ['reshape']),
    (nn.ZeroPad2d(1), S2, ['pad']), (nn.ConstantPad1d(1, 0.0), S1, ['pad']), (nn.ConstantPad2d(1, 0.0), S2, ['pad']),
    (nn.ConstantPad3d(1, 0.0), S3, ['pad']), (nn.ReflectionPad1d(1), S1, ['pad']), (nn.ReflectionPad2d(1), S2, ['pad']),
    (nn.ReplicationPad1d(1), S1, ['pad']), (nn.ReplicationPad2d(1), S2, ['pad']),
    (nn.ReplicationPad3d(1), S3, ['pad']),
    (nn.Identity(), (4, 6), []), (nn.Dropout(), (4, 6), []), (nn.Dropout1d(), S1, []), (nn.Dropout2d(), S2, []),
    (nn.Dropout3d(), S3, []), (nn.AlphaDropout(), (4, 6), []), (nn.FeatureAlphaDropout(), S2, []),
]

W = nn.Parameter(torch.randn(3, 6))
B = nn.Parameter(torch.randn(3))
# (description, fn(self, x), kinds of the ops it becomes, Fn state); x is a positive [4, 6] tensor
FUNCTION_CASES = [
    ('x + x', lambda s, x: x + x, ['add'], {}), ('x - 1', lambda s, x: x - 1, ['sub'], {}),
    ('1 - x', lambda s, x: 1 - x, ['sub'], {}), ('x * 2', lambda s, x: x * 2, ['mul'], {}),
    ('x / 2', lambda s, x: x / 2, ['div'], {}), ('x ** 2', lambda s, x: x ** 2, ['pow'], {}),
    ('-x', lambda s, x: -x, ['neg'], {}), ('torch.abs', lambda s, x: torch.abs(x), ['abs'], {}),
    ('torch.add', lambda s, x: torch.add(x, x), ['add'], {}), ('x.mul', lambda s, x: x.mul(x), ['mul'], {}),
    ('torch.exp', lambda s, x: torch.exp(x), ['exp'], {}), ('x.log', lambda s, x: x.log(), ['log'], {}),
    ('torch.sqrt', lambda s, x: torch.sqrt(x), ['sqrt'], {}),
    ('torch.rsqrt', lambda s, x: torch.rsqrt(x), ['rsqrt'], {}),
    ('torch.relu', lambda s, x: torch.relu(x), ['relu'], {}), ('F.relu', lambda s, x: F.relu(x), ['relu'], {}),
    ('torch.sigmoid', lambda s, x: torch.sigmoid(x), ['sigmoid'], {}),
    ('x.tanh', lambda s, x: x.tanh(), ['tanh'], {}), ('torch.erf', lambda s, x: torch.erf(x), ['erf'], {}),
    ('torch.reciprocal', lambda s, x: torch.reciprocal(x), ['reciprocal'], {}),
    ('torch.square', lambda s, x: torch.square(x), ['square'], {}),
    ('torch.sin', lambda s, x: torch.sin(x), ['sin'], {}), ('torch.cos', lambda s, x: torch.cos(x), ['cos'], {}),
    ('torch.floor', lambda s, x: torch.floor(x), ['floor'], {}),
    ('torch.ceil', lambda s, x: torch.ceil(x), ['ceil'], {}),
    ('torch.round', lambda s, x: torch.round(x), ['round'], {}),
    ('torch.sign', lambda s, x: torch.sign(x), ['sign'], {}),
    ('F.gelu', lambda s, x: F.gelu(x), ['gelu'], {}), ('F.silu', lambda s, x: F.silu(x), ['silu'], {}),
    ('F.softplus', lambda s, x: F.softplus(x), ['softplus'], {}),
    ('F.leaky_relu', lambda s, x: F.leaky_relu(x), ['leaky_relu'], {}),
    ('F.relu6', lambda s, x: F.relu6(x), ['clamp'], {}), ('F.hardtanh', lambda s, x: F.hardtanh(x), ['clamp'], {}),
    ('torch.clamp', lambda s, x: torch.clamp(x, 0, 1), ['clamp'], {}),
    ('x.clip', lambda s, x: x.clip(0, 1), ['clamp'], {}),
    ('torch.maximum', lambda s, x: torch.maximum(x, x), ['max'], {}),
    ('torch.minimum', lambda s, x: torch.minimum(x, x), ['min'], {}),
    ('torch.max(x, x)', lambda s, x: torch.max(x, x), ['max'], {}),
    ('torch.fmod', lambda s, x: torch.fmod(x, 2), ['mod'], {}), ('x % 2', lambda s, x: x % 2, ['mod'], {}),
    ('x == x', lambda s, x: x == x, ['equal'], {}), ('x < 0', lambda s, x: x < 0, ['less'], {}),
    ('x > 0', lambda s, x: x > 0, ['greater'], {}),
    ('logical_not', lambda s, x: torch.logical_not(x > 0), ['greater', 'logical_not'], {}),
    ('~mask', lambda s, x: ~(x > 0), ['greater', 'logical_not'], {}),
    ('a & b', lambda s, x: (x > 0) & (x < 1), ['greater', 'less', 'logical_and'], {}),
    ('a | b', lambda s, x: (x > 0) | (x < 1), ['greater', 'less', 'logical_or'], {}),
    ('torch.where', lambda s, x: torch.where(x > 0, x, x), ['greater', 'where'], {}),
    ('masked_fill', lambda s, x: x.masked_fill(x > 0, 0.0), ['greater', 'where'], {}),
    ('x @ x.T', lambda s, x: x @ x.T, ['transpose', 'matmul'], {}),
    ('torch.mm', lambda s, x: torch.mm(x, x.t()), ['transpose', 'matmul'], {}),
    ('torch.bmm', lambda s, x: torch.bmm(x[None], x.t()[None]), ['slice', 'transpose', 'slice', 'matmul'], {}),
    ('F.linear', lambda s, x: F.linear(x, s.w, s.b), ['matmul', 'add'], {'w': W, 'b': B}),
    ('F.linear, no bias', lambda s, x: F.linear(x, s.w), ['matmul'], {'w': W}),
    ('F.conv1d', lambda s, x: F.conv1d(x.t()[None], s.w[:, :, None]), ['transpose', 'slice', 'slice', 'conv'],
     {'w': W}),
    ('torch.softmax', lambda s, x: torch.softmax(x, -1), ['softmax'], {}),
    ('F.softmax', lambda s, x: F.softmax(x, -1), ['softmax'], {}),
    ('x.softmax', lambda s, x: x.softmax(-1), ['softmax'], {}),
    ('F.layer_norm', lambda s, x: F.layer_norm(x, (6,)), ['layer_norm'], {}),
    ('F.batch_norm', lambda s, x: F.batch_norm(x, s.m, s.v), ['batch_norm'],
     {'m': torch.zeros(6), 'v': torch.ones(6)}),
    ('F.embedding', lambda s, x: F.embedding(s.i, x), ['gather'], {'i': IDX % 4}),
    ('torch.gather', lambda s, x: torch.gather(x, 1, s.i), ['gather'], {'i': IDX}),
    # s.i[0] indexes a buffer outside the traced data: fx computes it once, a `constant` source here
    ('index_select', lambda s, x: x.index_select(1, s.i[0]), ['gather'], {'i': IDX}),
    ('x[tensor]', lambda s, x: x[s.i[:, 0]], ['gather'], {'i': IDX}),
    ('scatter', lambda s, x: x.scatter(1, s.i, x), ['scatter'], {'i': IDX}),
    ('cumsum', lambda s, x: x.cumsum(1), ['cumsum'], {}), ('sort', lambda s, x: x.sort(1)[0], ['sort'], {}),
    ('x.sum()', lambda s, x: x.sum(), ['reduce_sum'], {}),
    ('x.mean(1)', lambda s, x: x.mean(1), ['reduce_mean'], {}),
    ('x.amax(1)', lambda s, x: x.amax(1), ['reduce_max'], {}),
    ('x.amin(1)', lambda s, x: x.amin(1), ['reduce_min'], {}),
    ('x.prod(1)', lambda s, x: x.prod(1), ['reduce_prod'], {}),
    ('torch.max(x)', lambda s, x: torch.max(x), ['reduce_max'], {}),
    ('torch.min(x, 1)[0]', lambda s, x: torch.min(x, 1)[0], ['reduce_min'], {}),
    ('flatten', lambda s, x: x.flatten(), ['reshape'], {}), ('view', lambda s, x: x.view(2, 12), ['reshape'], {}),
    ('reshape', lambda s, x: x.reshape(-1), ['reshape'], {}),
    ('unsqueeze', lambda s, x: x.unsqueeze(0), ['reshape'], {}),
    ('squeeze', lambda s, x: x[None].squeeze(0), ['slice', 'reshape'], {}),
    ('unflatten', lambda s, x: x.unflatten(1, (2, 3)), ['reshape'], {}),
    ('view(x.size(0), -1)', lambda s, x: x.view(x.size(0), -1), ['reshape'], {}),
    ('a, b = x.shape', lambda s, x: unpack_view(x), ['reshape'], {}),
    ('permute', lambda s, x: x.permute(1, 0), ['transpose'], {}),
    ('transpose', lambda s, x: x.transpose(0, 1), ['transpose'], {}),
    ('x.mT', lambda s, x: x.mT, ['transpose'], {}), ('movedim', lambda s, x: x.movedim(0, 1), ['transpose'], {}),
    ('expand', lambda s, x: x[None].expand(2, 4, 6), ['slice', 'broadcast'], {}),
    ('repeat', lambda s, x: x.repeat(2, 1), ['broadcast'], {}),
    ('torch.cat', lambda s, x: torch.cat([x, x]), ['concat'], {}),
    ('torch.stack', lambda s, x: torch.stack([x, x]), ['concat'], {}),
    ('x[0]', lambda s, x: x[0], ['slice'], {}), ('x[:, 1:]', lambda s, x: x[:, 1:], ['slice'], {}),
    ('narrow', lambda s, x: x.narrow(1, 0, 2), ['slice'], {}),
    ('F.pad', lambda s, x: F.pad(x, (1, 1)), ['pad'], {}),
    ('F.avg_pool1d', lambda s, x: F.avg_pool1d(x[None], 2), ['slice', 'avg_pool'], {}),
    ('F.adaptive_avg_pool1d', lambda s, x: F.adaptive_avg_pool1d(x[None], 1), ['slice', 'avg_pool'], {}),
    ('F.max_pool1d', lambda s, x: F.max_pool1d(x[None], 2), ['slice', 'max_pool'], {}),
    ('F.adaptive_max_pool1d', lambda s, x: F.adaptive_max_pool1d(x[None], 1), ['slice', 'max_pool'], {}),
    ('F.dropout', lambda s, x: F.dropout(x, 0.5, False) * 2, ['mul'], {}),
    ('contiguous', lambda s, x: x.t().contiguous(), ['transpose'], {}),
    ('clone + detach', lambda s, x: x.clone().detach() * 2, ['mul'], {}),
    ('x.half()', lambda s, x: x.half(), ['cast'], {}), ('x.to(f64)', lambda s, x: x.to(torch.float64), ['cast'], {}),
    ('x.float() on f32', lambda s, x: x.float() * 2, ['mul'], {}), ('x.long()', lambda s, x: x.long(), ['cast'], {}),
    ('zeros_like', lambda s, x: torch.zeros_like(x) + x, ['add'], {}),
    ('F.hardswish (not in the table)', lambda s, x: F.hardswish(x), ['opaque'], {}),
]


class ModuleTableTest(unittest.TestCase):
    def test_every_module_in_the_table_becomes_its_kinds(self):
        for module, shape, kinds in MODULE_CASES:
            with self.subTest(module=type(module).__name__):
                self.assertEqual(computed(export(Wrap(module), torch.randn(shape))), kinds)

    def test_every_module_row_has_a_case(self):
        self.assertEqual(set(torch_mapping.MODULES), {type(m) for m, _, _ in MODULE_CASES} | {nn.Embedding})

    def test_embedding_reads_the_indices_and_the_weight(self):
        ops = export(Wrap(nn.Embedding(10, 4)), torch.zeros(2, 3, dtype=torch.int64))
        self.assertEqual(by_name(ops)['m'], {'name': 'm', 'kind': 'gather', 'inputs': ['x', 'm.weight'],
                                             'shape': [2, 3, 4], 'dtype': 'f32', 'output': True})
        self.assertEqual(by_name(ops)['x']['dtype'], 'i64')

    def test_a_conv_with_bias_is_one_op_reading_x_weight_and_bias(self):
        ops = export(Wrap(nn.Conv2d(2, 3, 3)), torch.randn(S2))
        self.assertEqual([op['name'] for op in ops], ['x', 'm.weight', 'm.bias', 'm'])
        self.assertEqual(ops[3]['inputs'], ['x', 'm.weight', 'm.bias'])
        self.assertEqual(ops[3]['shape'], [1, 3, 6, 6])
        self.assertEqual(ops[1]['shape'], [3, 2, 3, 3])

    def test_linear_is_a_matmul_then_a_bias_add_and_without_bias_only_the_matmul(self):
        ops = export(Wrap(nn.Linear(6, 3)), X)
        self.assertEqual([(op['name'], op['kind'], op.get('inputs')) for op in ops], [
            ('x', 'input', None), ('m.weight', 'input', None), ('m.bias', 'input', None),
            ('m', 'matmul', ['x', 'm.weight']), ('m.bias_add', 'add', ['m', 'm.bias'])])
        self.assertEqual(computed(export(Wrap(nn.Linear(6, 3, bias=False)), X)), ['matmul'])

    def test_batch_norm_reads_its_four_tensors_in_eval_and_is_opaque_in_training(self):
        ops = export(Wrap(nn.BatchNorm2d(2)), torch.randn(S2))
        self.assertEqual(ops[-1]['inputs'], ['x', 'm.weight', 'm.bias', 'm.running_mean', 'm.running_var'])
        training = export_module(Wrap(nn.BatchNorm2d(2)).train(), (torch.randn(S2),))['ops']
        self.assertEqual((training[-1]['name'], training[-1]['kind'], training[-1]['label']),
                         ('m', 'opaque', 'torch.nn.modules.batchnorm.BatchNorm2d'))

    def test_dropout_is_no_op_its_reader_reads_its_input(self):
        ops = export(nn.Sequential(nn.Dropout(0.5), nn.ReLU()), X)
        self.assertEqual([op['kind'] for op in ops], ['input', 'relu'])
        self.assertEqual(ops[1]['inputs'], [ops[0]['name']])


class FunctionTableTest(unittest.TestCase):
    def test_every_function_and_method_case_becomes_its_kinds(self):
        for name, fn, kinds, state in FUNCTION_CASES:
            with self.subTest(case=name):
                self.assertEqual(computed(export(Fn(fn, **state), X.abs() + 0.5)), kinds)

    def test_every_kind_of_the_function_table_has_a_case(self):
        tested = {kind for _, _, kinds, _ in FUNCTION_CASES for kind in kinds}
        self.assertLessEqual({r.kind for r in torch_mapping.FUNCTIONS.values() if r.how == 'op'}, tested)

    def test_a_python_number_is_part_of_its_op(self):
        ops = export(Fn(lambda s, x: x / 8), X)
        self.assertEqual(ops[1], {'name': 'truediv', 'kind': 'div', 'inputs': ['x'], 'shape': [4, 6],
                                  'dtype': 'f32', 'output': True})

    def test_a_one_element_tensor_of_model_data_is_part_of_an_elementwise_op(self):
        one = nn.Parameter(torch.ones(1))
        ops = export(Fn(lambda s, x: x * s.scale + torch.tensor(2.0), scale=one), X)
        self.assertEqual([(op['name'], op['kind'], op.get('inputs')) for op in ops],
                         [('x', 'input', None), ('mul', 'mul', ['x']), ('add', 'add', ['mul'])])

    def test_a_one_element_tensor_stays_an_input_where_the_rule_does_not_apply(self):
        scale = nn.Parameter(torch.ones(1))
        cases = [
            ('read by a matmul', lambda s, x: x[:, :1] @ s.w, {'w': nn.Parameter(torch.ones(1, 1))}, ['getitem', 'w']),
            ('six elements', lambda s, x: x * s.w, {'w': nn.Parameter(torch.ones(6))}, ['x', 'w']),
            ('only scalars', lambda s, x: x + s.w.pow(s.w), {'w': scale}, ['w', 'w']),
            ('a forward() input', lambda s, x: x * x[:1, :1].reshape(1), {}, ['x', 'reshape']),
        ]
        for name, fn, state, inputs in cases:
            with self.subTest(case=name):
                ops = export(Fn(fn, **state), X)
                reader = next(op for op in ops if op.get('inputs') and op['kind'] in ('matmul', 'mul', 'pow'))
                self.assertEqual(reader['inputs'], inputs)

    def test_a_split_is_one_slice_per_used_piece_and_x_i_is_that_piece(self):
        ops = export(Fn(lambda s, x: torch.split(x, 2, dim=1)[2] + torch.split(x, 2, dim=1)[0]), X)
        self.assertEqual([(op['name'], op['shape']) for op in ops if op['kind'] == 'slice'],
                         [('split.2', [4, 2]), ('split_1.0', [4, 2])])
        self.assertEqual(ops[-1]['inputs'], ['split.2', 'split_1.0'])

    def test_a_tuple_used_whole_has_an_op_per_tensor_with_its_dtype(self):
        ops = export(Fn(lambda s, x: torch.max(x, 1)), X)
        self.assertEqual([(op['name'], op['kind'], op['dtype']) for op in ops[1:]],
                         [('max_1.0', 'reduce_max', 'f32'), ('max_1.1', 'reduce_max', 'i64')])
        self.assertTrue(all(op.get('output') for op in ops[1:]))

    def test_a_constant_made_in_forward_is_a_constant_source(self):
        ops = export(Fn(lambda s, x: x + torch.ones(6)), X)
        self.assertEqual(ops[1]['kind'], 'constant')
        self.assertEqual(ops[2]['inputs'], ['x', ops[1]['name']])

    def test_a_parameter_read_in_forward_is_an_input_named_after_it(self):
        ops = export(Fn(lambda s, x: x * s.scale, scale=nn.Parameter(torch.ones(6))), X)
        self.assertEqual(by_name(ops)['scale']['kind'], 'input')

    def test_a_function_from_outside_torch_is_opaque_labelled_with_it(self):
        ops = export(CallsDoubleIt(), X)
        self.assertEqual((ops[1]['name'], ops[1]['kind']), ('double_it', 'opaque'))
        self.assertRegex(ops[1]['label'], r'^\S*double_it$')

    def test_an_unknown_torch_function_is_opaque_labelled_with_its_target(self):
        ops = export(Fn(lambda s, x: F.hardswish(x)), X)
        self.assertEqual(ops[1], {'name': 'hardswish', 'kind': 'opaque', 'inputs': ['x'], 'shape': [4, 6],
                                  'dtype': 'f32', 'label': 'torch.nn.functional.hardswish', 'output': True})

    def test_only_opaque_ops_carry_a_label(self):
        ops = export(sample_modules.TinyNet(), torch.randn(2, 8))
        self.assertEqual([op for op in ops if 'label' in op], [])


class GraphTest(unittest.TestCase):
    def test_ops_follow_execution_order_with_sources_before_their_first_reader(self):
        ops = export(sample_modules.TinyNet(), torch.randn(2, 8))
        self.assertEqual([op['name'] for op in ops], ['x', 'fc1.weight', 'fc1.bias', 'fc1', 'fc1.bias_add', 'act',
                                                      'fc2.weight', 'fc2.bias', 'fc2', 'fc2.bias_add'])
        self.assertEqual([op['shape'] for op in ops if op.get('inputs')], [[2, 16], [2, 16], [2, 16], [2, 4], [2, 4]])
        self.assertEqual([op['name'] for op in ops if op.get('output')], ['fc2.bias_add'])

    def test_a_module_called_twice_gets_two_ops_reading_one_set_of_weights(self):
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(6, 6)

            def forward(self, x):
                return self.fc(self.fc(x))
        ops = export(M(), X)
        self.assertEqual([op['name'] for op in ops], ['x', 'fc.weight', 'fc.bias', 'fc', 'fc.bias_add', 'fc_1',
                                                      'fc_1.bias_add'])
        self.assertEqual(ops[5]['inputs'], ['fc.bias_add', 'fc.weight'])

    def test_a_tied_weight_is_one_source(self):
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.a, self.b = nn.Linear(6, 6, bias=False), nn.Linear(6, 6, bias=False)
                self.b.weight = self.a.weight

            def forward(self, x):
                return self.b(self.a(x))
        ops = export(M(), X)
        self.assertEqual([op['name'] for op in ops], ['x', 'a.weight', 'a', 'b'])
        self.assertEqual(ops[3]['inputs'], ['a', 'a.weight'])

    def test_dtypes_come_from_the_tensors(self):
        ops = export(Wrap(nn.Linear(6, 3)).double(), X.double())
        self.assertEqual({op['dtype'] for op in ops}, {'f64'})
        self.assertEqual(export(Fn(lambda s, x: x * 2), X.half())[1]['dtype'], 'f16')
        self.assertEqual(export(Fn(lambda s, x: x.to(torch.bfloat16)), X)[1]['dtype'], 'bf16')
        self.assertEqual(export(Fn(lambda s, x: x > 0), X)[1]['dtype'], 'bool')

    def test_a_torch_nn_layer_with_a_python_branch_inside_is_one_opaque_op(self):
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.mha = nn.MultiheadAttention(6, 2)

            def forward(self, x):
                out, _ = self.mha(x, x, x)
                return out
        ops = export(M(), torch.randn(4, 1, 6))
        self.assertEqual(computed(ops), ['opaque'])  # the unused attention weights make no op
        self.assertEqual(ops[-1]['inputs'], ['x', 'x', 'x', 'mha.in_proj_weight', 'mha.in_proj_bias',
                                             'mha.out_proj.weight', 'mha.out_proj.bias'])
        whole = export(nn.TransformerEncoderLayer(6, 2, 12), torch.randn(4, 1, 6))
        self.assertEqual(computed(whole), ['opaque'])
        self.assertEqual((whole[-1]['name'], whole[-1]['label']),
                         ('TransformerEncoderLayer', 'torch.nn.modules.transformer.TransformerEncoderLayer'))

    def test_the_elementwise_kinds_are_the_cores(self):
        cpp = (ROOT / 'core/src/op_kind.cpp').read_text()
        self.assertEqual(set(re.findall(r'KindInfo\{K::\w+, "(\w+)", C::elementwise\}', cpp)),
                         torch_mapping.ELEMENTWISE)

    def test_every_kind_is_a_core_kind_and_names_are_unique(self):
        kinds = set(re.findall(r'KindInfo\{K::\w+, "(\w+)"', (ROOT / 'core/src/op_kind.cpp').read_text()))
        table = {r.kind for r in [*torch_mapping.MODULES.values(), *torch_mapping.FUNCTIONS.values()] if r.kind}
        self.assertGreater(len(kinds), 40)
        self.assertLessEqual(table | {'opaque', 'add', 'input', 'constant', 'slice', 'gather'}, kinds)
        ops = export(torch_models.GALLERY['resnet18'].build(), torch.randn(1, 3, 64, 64))
        self.assertEqual(len({op['name'] for op in ops}), len(ops))

    def test_a_deep_chain_exports_without_recursion(self):
        depth = 3000
        ops = export(nn.Sequential(*[nn.ReLU() for _ in range(depth)]), X)
        self.assertEqual(len(ops), depth + 1)
        self.assertEqual(ops[-1]['inputs'], [ops[-2]['name']])


class ErrorTest(unittest.TestCase):
    def test_control_flow_on_a_tensor_value_names_the_module_and_suggests_leaf(self):
        with self.assertRaisesRegex(ExportError, r'could not trace Gated.*--leaf'):
            export(sample_modules.Gated(), X)
        ops = export_module(sample_modules.Gated(), (X,), leaf_modules=[sample_modules.Gate])['ops']
        self.assertEqual(computed(ops), ['mul', 'opaque', 'relu'])

    def test_the_wrong_number_of_inputs_is_reported(self):
        with self.assertRaisesRegex(ExportError, r'forward\(x, mask\) needs 2 example input\(s\), got 1'):
            export(sample_modules.TwoInputs(), X)

    def test_a_non_tensor_input_or_module_is_reported(self):
        with self.assertRaisesRegex(ExportError, r'example input 0 \(x\) is a list'):
            export_module(sample_modules.TinyNet(), ([1, 2],))
        with self.assertRaisesRegex(ExportError, r'needs a torch.nn.Module, got function'):
            export_module(lambda x: x, (X,))

    def test_a_shape_the_model_rejects_names_the_failing_node(self):
        with self.assertRaisesRegex(ExportError, r'failed at node "fc1" \(torch.nn.modules.linear.Linear\)'):
            export(sample_modules.TinyNet(), torch.randn(2, 5))

    def test_forward_with_star_args_is_reported(self):
        class M(nn.Module):
            def forward(self, *xs):
                return xs[0]
        with self.assertRaisesRegex(ExportError, r'forward takes \*args'):
            export(M(), X)


def run_main(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = torch_export.main(list(argv))
        except SystemExit as e:
            status = e.code
    return status, out.getvalue(), err.getvalue()


class CommandLineTest(unittest.TestCase):
    def test_a_user_module_by_file_path_runs_as_a_program(self):
        run = subprocess.run([sys.executable, str(ROOT / 'tools/torch_export.py'), '--module',
                              f'{HERE / "sample_modules.py"}:TinyNet', '--input-shape', '2,8'],
                             capture_output=True, text=True, check=False)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(computed(json.loads(run.stdout)['ops']), ['matmul', 'add', 'relu', 'matmul', 'add'])

    def test_a_user_module_by_module_name_with_two_inputs_and_dtypes(self):
        status, out, err = run_main('--module', 'sample_modules:TwoInputs', '--input-shape', '3,4',
                                    '--input-shape', '3,4', '--input-dtype', 'f16', '--input-dtype', 'bool')
        self.assertEqual(status, 0, err)
        ops = json.loads(out)['ops']
        self.assertEqual([(op['name'], op['dtype']) for op in ops[:2]], [('x', 'f16'), ('mask', 'bool')])

    def test_leaf_on_the_command_line(self):
        status, out, err = run_main('--module', 'sample_modules:Gated', '--input-shape', '4', '--leaf',
                                    'sample_modules:Gate')
        self.assertEqual(status, 0, err)
        self.assertEqual(computed(json.loads(out)['ops']), ['mul', 'opaque', 'relu'])

    def test_usage_and_input_errors_say_what_to_do(self):
        tiny = ('--module', 'sample_modules:TinyNet')
        cases = [
            ((), 2, 'give either a model name or --module'),
            (('resnet18', '--module', 'a:B'), 2, 'give either a model name or --module'),
            (('no-such-model',), 1, "unknown model 'no-such-model'"),
            (tiny, 1, '--module needs --input-shape'),
            ((*tiny, '--input-shape', '2,x'), 1, "--input-shape '2,x'"),
            (('--module', 'TinyNet', '--input-shape', '2,8'), 1, 'write it as pkg.mod:Class'),
            (('--module', 'no_such_pkg:TinyNet', '--input-shape', '2,8'), 1, 'cannot import no_such_pkg'),
            (('--module', 'sample_modules:Missing', '--input-shape', '2,8'), 1, 'has no class Missing'),
            (('--module', 'sample_modules:NOT_A_CLASS', '--input-shape', '2,8'), 1, 'has no class NOT_A_CLASS'),
            (('--module', 'sample_modules:NeedsArgs', '--input-shape', '2,8'), 1, 'must construct without arguments'),
            ((*tiny, '--input-shape', '2,8', '--input-dtype', 'f32', '--input-dtype', 'f32'), 1,
             '2 --input-dtype for 1 input'),
            (('--module', 'sample_modules:Gated', '--input-shape', '4'), 1, 'could not trace Gated'),
            ((*tiny, '--input-shape', '2,5'), 1, 'failed at node "fc1"'),
        ]
        for argv, status, message in cases:
            with self.subTest(argv=argv):
                got, out, err = run_main(*argv)
                self.assertEqual(got, status)
                self.assertIn(message, err)
                self.assertEqual(out, '')


class Rows(nn.Module):
    """[b, s, 8] → Linear → view(-1, 8) → relu → view(b, s, 8) (with b, s = x.shape)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        b, s, _ = x.shape
        return torch.relu(self.fc(x).view(-1, 8)).view(b, s, 8)


class Products(nn.Module):
    """[b, s, 8] → cat along s ([b, 2s, 8]) → flatten(0, 1) ([2bs, 8]) → Linear; and scores [b, s, s] flattened to
    [b, s*s]."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        doubled = torch.cat([x, x], dim=1)
        rows = self.fc(doubled.flatten(0, 1))
        scores = torch.matmul(x, x.transpose(1, 2))
        return rows, scores.flatten(1)


def export_dynamic(module, inputs, dynamic):
    warnings = []
    graph = export_module(module.eval(), inputs, dynamic=dynamic, warn=warnings.append)
    return graph, warnings


class DynamicTest(unittest.TestCase):
    """--dynamic / export_module(dynamic=...): named dimensions, found by running the model at a second size."""

    def test_parse_dynamic_reads_name_dim_and_name_input_dim(self):
        self.assertEqual(torch_dims.parse_dynamic(['batch=0', 'seq=x:1', 'batch=1:0']),
                         {'batch': [(None, 0), (1, 0)], 'seq': [('x', 1)]})
        for bad in ['batch', 'batch=x', '2d=0', 'b-s=0', '=0', 'batch=-1']:
            with self.subTest(spec=bad):
                with self.assertRaises(ExportError):
                    torch_dims.parse_dynamic([bad])

    def test_a_named_batch_follows_through_linear_layers_and_dims_hold_the_traced_size(self):
        graph, warnings = export_dynamic(sample_modules.TinyNet(), (torch.randn(2, 8),), {'batch': 0})
        self.assertEqual(graph['dims'], {'batch': 2})
        self.assertEqual(list(graph), ['dims', 'ops'])
        shapes = {op['name']: op['shape'] for op in graph['ops']}
        self.assertEqual(shapes['x'], ['batch', 8])
        self.assertEqual(shapes['fc1'], ['batch', 16])
        self.assertEqual(shapes['fc1.weight'], [16, 8], 'weights keep their numbers')
        self.assertEqual(shapes['fc2.bias_add'], ['batch', 4])
        self.assertEqual(warnings, [])
        self.assertTrue(torch_export.to_json(graph).startswith('{"dims": {"batch": 2}, "ops": [\n  {"name": "x"'))

    def test_a_dim_that_only_equals_the_traced_size_keeps_its_number(self):
        graph, _ = export_dynamic(nn.Linear(4, 4), (torch.randn(4, 4),), {'batch': 0})
        self.assertEqual([op['shape'] for op in graph['ops'] if op.get('inputs')], [['batch', 4], ['batch', 4]])

    def test_a_product_of_names_is_written_as_the_product_with_no_warning(self):
        graph, warnings = export_dynamic(Rows(), (torch.randn(2, 3, 8),), {'batch': 0, 'seq': 1})
        shapes = [op['shape'] for op in graph['ops'] if op.get('inputs')]
        self.assertEqual(shapes, [['batch', 'seq', 8], ['batch', 'seq', 8], ['batch*seq', 8], ['batch*seq', 8],
                                  ['batch', 'seq', 8]])
        self.assertEqual(graph['dims'], {'batch': 2, 'seq': 3}, 'a product needs no default of its own')
        self.assertEqual(warnings, [])
        self.assertIn('"shape": ["batch*seq", 8]', torch_export.to_json(graph))

    def test_products_are_canonical_a_number_first_then_names_in_ascii_order_repeated_per_power(self):
        graph, warnings = export_dynamic(Products(), (torch.randn(2, 3, 8),), {'seq': 1, 'batch': 0})
        shapes = {op['name']: op['shape'] for op in graph['ops']}
        self.assertEqual(shapes['cat'], ['batch', '2*seq', 8])
        self.assertEqual(shapes['flatten'], ['2*batch*seq', 8])
        self.assertEqual(shapes['fc'], ['2*batch*seq', 4])
        self.assertEqual(shapes['matmul'], ['batch', 'seq', 'seq'])
        self.assertEqual(shapes['flatten_1'], ['batch', 'seq*seq'])
        self.assertEqual(graph['dims'], {'batch': 2, 'seq': 3}, 'first use first')
        self.assertEqual(warnings, [])

    def test_product_text_and_dim_names(self):
        self.assertEqual(torch_dims.product_text(1, ['seq', 'batch']), 'batch*seq')
        self.assertEqual(torch_dims.product_text(2, ['seq']), '2*seq')
        self.assertEqual(torch_dims.product_text(1, ['seq']), 'seq')
        self.assertEqual(torch_dims.product_text(6, []), 6)
        self.assertEqual(torch_dims.product_text(0, ['seq']), 0)
        self.assertEqual(torch_dims.product_text(3, ['b', 'B', '_x', 'a1', 'a']), '3*B*_x*a*a1*b', 'A-Z < _ < a-z')
        self.assertEqual(torch_dims.dim_names('2*batch*seq*seq'), ['batch', 'seq', 'seq'])
        self.assertEqual(torch_dims.dim_names('N'), ['N'])
        self.assertEqual(torch_dims.dim_names(768), [])

    def test_a_size_that_follows_a_name_but_is_no_multiple_of_it_is_derived(self):
        graph, warnings = export_dynamic(nn.Conv2d(1, 2, 3, stride=2, padding=1), (torch.randn(1, 1, 8, 8),),
                                         {'N': 0, 'H': 2})
        conv = next(op for op in graph['ops'] if op['kind'] == 'conv')
        self.assertEqual(conv['shape'], ['N', 2, 'H_dim', 4])
        self.assertEqual(graph['dims'], {'N': 1, 'H': 8, 'H_dim': 4})
        self.assertIn('changes with H but is no whole multiple of it', warnings[0])

    def test_names_per_input_and_for_every_input(self):
        graph, _ = export_dynamic(sample_modules.TwoInputs(), (torch.randn(3, 4), torch.ones(3, 4, dtype=torch.bool)),
                                  {'rows': 0})
        self.assertEqual([op['shape'] for op in graph['ops']][:2], [['rows', 4], ['rows', 4]])
        graph, _ = export_dynamic(sample_modules.TwoInputs(), (torch.randn(3, 4), torch.ones(4, dtype=torch.bool)),
                                  {'rows': [('x', 0)]})
        self.assertEqual([op['shape'] for op in graph['ops']][:2], [['rows', 4], [4]])

    def test_dynamic_errors_say_what_to_do(self):
        two = (sample_modules.TwoInputs(), (torch.randn(3, 4), torch.ones(3, 4, dtype=torch.bool)))
        cases = [
            ({'n': [('x', 5)]}, "input 'x' has no dim 5"),
            ({'n': [('nope', 0)]}, "input 'nope' has no dim 0"),
            ({'n': [('x', 0), ('mask', 1)]}, 'traced sizes [3, 4]'),
            ({'n': [('x', 0)]}, 'with its dims at 6 (the probe size'),
            ({'n': 7}, 'no input has dim 7'),
        ]
        for dynamic, message in cases:
            with self.subTest(dynamic=dynamic):
                with self.assertRaises(ExportError) as caught:
                    export_dynamic(*two, dynamic)
                self.assertIn(message, str(caught.exception))

    def test_dynamic_on_the_command_line_with_warnings_on_stderr(self):
        status, out, err = run_main('--module', 'sample_modules:TinyNet', '--input-shape', '2,8', '--dynamic',
                                    'batch=0')
        self.assertEqual(status, 0, err)
        self.assertEqual(json.loads(out)['dims'], {'batch': 2})
        self.assertEqual(err, '')
        status, out, err = run_main('--module', 'sample_modules:TinyNet', '--input-shape', '2,8', '--dynamic', 'b=x')
        self.assertEqual((status, out), (1, ''))
        self.assertIn("--dynamic 'b=x': write NAME=DIM", err)

    def test_without_dynamic_there_are_no_names_and_no_dims(self):
        graph, _ = export_dynamic(sample_modules.TinyNet(), (torch.randn(2, 8),), None)
        self.assertEqual(list(graph), ['ops'])
        self.assertTrue(torch_export.to_json(graph).startswith('{"ops": [\n'))


class GalleryTest(unittest.TestCase):
    def test_the_committed_gallery_is_what_the_tools_write_today(self):
        with tempfile.TemporaryDirectory() as tmp:
            with contextlib.redirect_stdout(io.StringIO()):
                make_gallery.main(['--out', tmp])
            for model_id in torch_models.GALLERY:
                for ext in ('json', 'onnx'):
                    with self.subTest(file=f'{model_id}.{ext}'):
                        fresh = (Path(tmp) / f'{model_id}.{ext}').read_bytes()
                        committed = (ROOT / 'examples/models' / f'{model_id}.{ext}').read_bytes()
                        self.assertTrue(fresh == committed, f'examples/models/{model_id}.{ext} is stale: run '
                                        '/usr/bin/python3 tools/make_gallery.py')

    def test_the_cli_prints_the_committed_json_of_each_gallery_model(self):
        for model_id in torch_models.GALLERY:
            with self.subTest(model=model_id):
                status, out, err = run_main(model_id)
                self.assertEqual(status, 0, err)
                self.assertEqual(out, (ROOT / 'examples/models' / f'{model_id}.json').read_text())

    def test_the_onnx_files_keep_batch_norm_and_gelu_whole_and_carry_no_weights(self):
        import onnx
        for model_id, wanted in [('resnet18', 'BatchNormalization'), ('bert-layer', 'Gelu'),
                                 ('bert-layer', 'LayerNormalization'), ('mobilenet-v2', 'Clip')]:
            with self.subTest(model=model_id, op=wanted):
                graph = onnx.load(str(ROOT / 'examples/models' / f'{model_id}.onnx')).graph
                self.assertIn(wanted, {n.op_type for n in graph.node})
                self.assertEqual(len(graph.initializer), 0)
                self.assertNotIn('Identity', {n.op_type for n in graph.node})


if __name__ == '__main__':
    unittest.main()
