"""Compile the toy game's Cython core once and import it, for the tests (it is not installed).

The core is built like the project's extensions (``setup.py``: the same directives and flags,
``OMEN_DEBUG_BUILD=1`` for the checked build, ``ext/common`` on the include path) into
``build/toy_game/<key>/`` under the repository root, where ``<key>`` hashes everything the build
depends on: a changed source, header, directive or interpreter builds anew, an unchanged one is
imported at once.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import shlex
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
SOURCE = Path(__file__).with_name("_toy_core.pyx")
COMMON = ROOT / "ext" / "common"
MODULE = "toy_game._toy_core"
DEBUG = os.environ.get("OMEN_DEBUG_BUILD") == "1"
DIRECTIVES = {"language_level": 3, "boundscheck": DEBUG, "wraparound": DEBUG, "initializedcheck": DEBUG,
              "cdivision": True}
COMPILE_ARGS = ["-O0", "-g"] if DEBUG else ["-O3"]


class NoCompilerError(RuntimeError):
    """No C compiler to build the core with (the tests skip)."""


def c_compiler() -> str | None:
    """The path of the C compiler Python's build tools would use, if there is one."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(shlex.split(command)[0])


def _build_key() -> str:
    import Cython

    digest = hashlib.sha256()
    for path in [SOURCE, *sorted(COMMON.glob("*.pxd"))]:
        digest.update(path.read_bytes())
    digest.update(repr((sorted(DIRECTIVES.items()), COMPILE_ARGS, sys.version, Cython.__version__)).encode())
    return digest.hexdigest()[:16]


def _compile(into: Path) -> None:
    """cythonize and compile the core into the folder ``into``."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    extension = Extension(MODULE, [str(SOURCE)], include_dirs=[str(COMMON)], extra_compile_args=COMPILE_ARGS)
    modules = cythonize([extension], compiler_directives=DIRECTIVES, include_path=[str(COMMON)],
                        build_dir=str(into / "c"), quiet=True)
    command = Distribution({"ext_modules": modules}).get_command_obj("build_ext")
    command.build_lib = str(into)
    command.build_temp = str(into / "obj")
    command.ensure_finalized()
    command.run()


@functools.cache
def load_core() -> ModuleType:
    """The compiled core module (``toy_game._toy_core``), built first if needed.

    Raises :class:`NoCompilerError` when there is no C compiler to build it with."""
    folder = ROOT / "build" / "toy_game" / _build_key()
    library = folder / ("_toy_core" + sysconfig.get_config_var("EXT_SUFFIX"))
    if not library.exists():
        if c_compiler() is None:
            raise NoCompilerError("no C compiler found to build the toy game's core (set CC)")
        folder.parent.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(dir=folder.parent, prefix="building-"))
        _compile(scratch)
        built = next(scratch.rglob(library.name))
        folder.mkdir(exist_ok=True)
        os.replace(built, library)  # atomic: a parallel session imports a whole library or builds its own
        shutil.rmtree(scratch)
    spec = importlib.util.spec_from_file_location(MODULE, library)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[MODULE] = module
    spec.loader.exec_module(module)
    return module
