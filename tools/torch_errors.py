"""torch_errors.py — ExportError, the one error of the PyTorch export tools (torch_export.py, torch_dims.py,
torch_models.py): a model, input or option they cannot handle, with a message that says what and where.

It lives apart so that every tool raises the same class: torch_export.py runs as __main__, and a module that
imported ExportError from torch_export would load a second copy of it, whose ExportError main() does not catch.
"""


class ExportError(Exception):
    """A model, input or option the exporter cannot handle; the message says what and where."""
