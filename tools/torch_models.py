"""torch_models.py — the PyTorch models of the page's gallery, built with random weights (nothing is downloaded).

Contract: GALLERY maps a gallery id (the page's example id; examples/models/<id>.json and .onnx) to a Model:
build() → a fresh nn.Module in eval mode, input_shape → the example input's shape (f32), dynamic → the named
dimensions of that input ({name: dim}, torch_export.py's `dynamic`; the graph's "dims" then hold the traced sizes,
so plans at the defaults are those of input_shape). torchvision_model(name)
builds any torchvision model by name with weights=None, or raises ExportError listing the choices.
BertLayer and MlpGelu are written with plain modules so torch.fx traces them (nn.TransformerEncoderLayer and
nn.MultiheadAttention are one opaque op to fx) and so torch.onnx.export writes one ONNX node per torch op
(each transpose is one permutation; see docs/torch_export.md). Used by torch_export.py and make_gallery.py.
"""
from __future__ import annotations

import math
from typing import Callable, NamedTuple

import torch
import torchvision
from torch import nn


class BertLayer(nn.Module):
    """A BERT-base encoder layer (post-norm): self-attention, residual, LayerNorm, GELU MLP, residual, LayerNorm."""

    def __init__(self, hidden=768, heads=12, ff=3072, dropout=0.1):
        super().__init__()
        self.heads, self.head_dim = heads, hidden // heads
        self.query, self.key, self.value = (nn.Linear(hidden, hidden) for _ in range(3))
        self.attn_out, self.attn_norm = nn.Linear(hidden, hidden), nn.LayerNorm(hidden)
        self.ff_in, self.act, self.ff_out = nn.Linear(hidden, ff), nn.GELU(), nn.Linear(ff, hidden)
        self.ff_norm, self.dropout = nn.LayerNorm(hidden), nn.Dropout(dropout)

    def forward(self, x):
        b, s, h = x.shape
        heads = (b, s, self.heads, self.head_dim)
        q = self.query(x).view(heads).transpose(1, 2)  # [b, heads, s, d]
        k_t = self.key(x).view(heads).permute(0, 2, 3, 1)  # [b, heads, d, s]
        v = self.value(x).view(heads).transpose(1, 2)
        scores = torch.matmul(q, k_t) / math.sqrt(self.head_dim)
        probs = self.dropout(torch.softmax(scores, dim=-1))
        context = torch.matmul(probs, v).transpose(1, 2).reshape(b, s, h)
        x = self.attn_norm(x + self.dropout(self.attn_out(context)))
        return self.ff_norm(x + self.dropout(self.ff_out(self.act(self.ff_in(x)))))


class MlpGelu(nn.Module):
    """A three-layer perceptron with GELU activations (MNIST-sized input, 1024-wide hidden layers)."""

    def __init__(self, sizes=(784, 1024, 1024, 10)):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))
        self.act = nn.GELU()

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = self.act(layer(x))
        return self.layers[-1](x)


class Model(NamedTuple):
    build: Callable[[], nn.Module]
    input_shape: tuple[int, ...]
    dynamic: dict = {}


GALLERY = {
    'resnet18': Model(lambda: torchvision.models.resnet18(weights=None).eval(), (1, 3, 224, 224)),
    'mobilenet-v2': Model(lambda: torchvision.models.mobilenet_v2(weights=None).eval(), (1, 3, 224, 224)),
    'bert-layer': Model(lambda: BertLayer().eval(), (1, 128, 768), {'batch': 0, 'seq': 1}),
    'mlp-gelu': Model(lambda: MlpGelu().eval(), (256, 784), {'batch': 0}),
}


def torchvision_model(name):
    """torchvision.models.<name>(weights=None) in eval mode."""
    from torch_errors import ExportError
    try:
        return torchvision.models.get_model(name, weights=None).eval()
    except ValueError as e:
        known = ', '.join(GALLERY)
        raise ExportError(f'unknown model {name!r}: use a gallery model ({known}), a torchvision model name '
                          f'(torchvision.models.list_models()), or --module pkg.mod:Class') from e
