"""Read a ``model.pt`` state dict into numpy arrays without importing torch.

``torch.save`` writes a zip archive: ``<name>/data.pkl`` (a pickle of the dict whose
tensors are ``torch._utils._rebuild_tensor_v2(storage, offset, size, stride, ...)``
calls on persistent storages) and one raw little-endian file per storage
(``<name>/data/<key>``). This reader accepts exactly that and nothing else: the
unpickler resolves only the rebuild function, the storage types and ``OrderedDict``
(the same allow-list idea as ``torch.load(weights_only=True)``); any other global
raises :class:`UnsupportedWeights`, and the caller falls back to torch.
"""

from __future__ import annotations

import io
import pickle
import zipfile
from collections import OrderedDict
from pathlib import Path

import numpy as np

_STORAGE_DTYPES = {
    "FloatStorage": np.float32, "DoubleStorage": np.float64, "HalfStorage": np.float16,
    "LongStorage": np.int64, "IntStorage": np.int32, "ShortStorage": np.int16,
    "CharStorage": np.int8, "ByteStorage": np.uint8, "BoolStorage": np.bool_,
}


class UnsupportedWeights(ValueError):
    """The file is not a plain torch zip state dict this reader understands."""


class _Storage:
    __slots__ = ("dtype", "key")

    def __init__(self, dtype, key: str):
        self.dtype, self.key = dtype, key


def _rebuild_tensor(storage, offset, size, stride, *_rest):
    return ("tensor", storage, int(offset), tuple(size), tuple(stride))


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        if module == "torch._utils" and name == "_rebuild_tensor_v2":
            return _rebuild_tensor
        if module == "collections" and name == "OrderedDict":
            return OrderedDict
        if module == "torch" and name in _STORAGE_DTYPES:
            return _STORAGE_DTYPES[name]
        raise UnsupportedWeights(f"unexpected object {module}.{name} in the weights file")

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and len(pid) >= 5 and pid[0] == "storage"):
            raise UnsupportedWeights("unexpected storage reference in the weights file")
        dtype = pid[1]
        if dtype not in _STORAGE_DTYPES.values():
            raise UnsupportedWeights("unsupported storage type in the weights file")
        return _Storage(dtype, str(pid[2]))


def read_state_dict(path: Path | str) -> dict[str, np.ndarray]:
    """``{name: array}`` from a ``torch.save``-d state dict (zip format, little-endian)."""
    path = Path(path)
    try:
        zf = zipfile.ZipFile(path)
    except zipfile.BadZipFile as e:
        raise UnsupportedWeights(f"{path.name}: not a zip-format torch file") from e
    with zf:
        names = zf.namelist()
        pkl = [n for n in names if n.endswith("/data.pkl") or n == "data.pkl"]
        if len(pkl) != 1:
            raise UnsupportedWeights(f"{path.name}: no single data.pkl in the archive")
        prefix = pkl[0][: -len("data.pkl")]
        if f"{prefix}byteorder" in names and zf.read(f"{prefix}byteorder").strip() != b"little":
            raise UnsupportedWeights(f"{path.name}: big-endian weights")
        obj = _Unpickler(io.BytesIO(zf.read(pkl[0]))).load()
        if not isinstance(obj, dict):
            raise UnsupportedWeights(f"{path.name}: not a state dict")
        raw: dict[str, np.ndarray] = {}
        out: dict[str, np.ndarray] = {}
        for k, v in obj.items():
            if not (isinstance(v, tuple) and len(v) == 5 and v[0] == "tensor"):
                raise UnsupportedWeights(f"{path.name}: entry {k!r} is not a tensor")
            _, st, offset, size, stride = v
            if st.key not in raw:
                raw[st.key] = np.frombuffer(zf.read(f"{prefix}data/{st.key}"), dtype=st.dtype)
            base = raw[st.key]
            item = base.itemsize
            n = int(np.prod(size)) if size else 1
            if n and offset + sum((d - 1) * s for d, s in zip(size, stride)) >= base.size:
                raise UnsupportedWeights(f"{path.name}: entry {k!r} runs past its storage")
            arr = np.lib.stride_tricks.as_strided(base[offset:], shape=size,
                                                  strides=tuple(s * item for s in stride)) if n else \
                np.zeros(size, st.dtype)
            out[k] = np.array(arr)  # own, writable, contiguous copy
        return out

