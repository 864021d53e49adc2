"""sample_modules.py — small user modules for test_torch_export.py's --module and --leaf command-line tests."""
import torch
from torch import nn


class TinyNet(nn.Module):
    """Linear → ReLU → Linear on [N, 8] inputs."""

    def __init__(self):
        super().__init__()
        self.fc1, self.act, self.fc2 = nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


class Gate(nn.Module):
    """Branches on a tensor value: torch.fx cannot trace it."""

    def forward(self, x):
        return x if x.sum() > 0 else -x


class Gated(nn.Module):
    """A Gate between two elementwise ops: traceable when Gate is a leaf (--leaf)."""

    def __init__(self):
        super().__init__()
        self.gate = Gate()

    def forward(self, x):
        return torch.relu(self.gate(x * 2))


class NeedsArgs(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, width)

    def forward(self, x):
        return self.fc(x)


class TwoInputs(nn.Module):
    def forward(self, x, mask):
        return torch.where(mask, x, x * 0)


NOT_A_CLASS = 3
