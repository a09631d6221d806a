"""Build the Cython extensions: every ``ext/<folder>/<stem>.pyx`` becomes the module
``omen_search.<stem>`` (``ext/search/_search.pyx``: the search; ``ext/heir/_core.pyx``: a game's core).
``ext/common/`` holds what every module shares (the C contract between a game and the search, the
random generator, the undo trail).

Everything else (name, version, dependencies, package data) is declared in ``pyproject.toml``.
Cython and numpy are build requirements there, so they are importable here.

Compiler directives are set once, here, for every extension. ``OMEN_DEBUG_BUILD=1`` builds with
bounds, wraparound and initialisation checks on and ``-O0 -g``, for hunting memory errors::

    OMEN_DEBUG_BUILD=1 python3 -m pip install ".[test]"

With no ``.pyx`` file in ``ext/`` the package installs as pure Python.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

EXT_DIR = "ext"  # relative to the project root, where pip runs this file
COMMON_DIR = os.path.join(EXT_DIR, "common")
DEBUG = os.environ.get("OMEN_DEBUG_BUILD") == "1"

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
}
COMPILE_ARGS = ["-O0", "-g"] if DEBUG else ["-O3"]
# Neither cythonize (which regenerates a .c file only when its .pyx/.pxd changed) nor build_ext
# (which relinks only when the .c is newer than the .so) notices a change of directives or flags, so
# each combination builds in its own directory: switching OMEN_DEBUG_BUILD, or editing DIRECTIVES,
# never reuses C or objects built with other checks.
_TAG = hashlib.sha256(repr((sorted(DIRECTIVES.items()), COMPILE_ARGS)).encode()).hexdigest()[:8]
BUILD_BASE = os.path.join("build", f"{'debug' if DEBUG else 'release'}-{_TAG}")


def extensions() -> list[Extension]:
    """One extension per ``ext/<folder>/*.pyx``, cythonized with the project's directives."""
    root = Path(__file__).resolve().parent
    sources = sorted((root / EXT_DIR).glob("*/*.pyx"))
    if not sources:
        return []
    modules = [
        Extension(
            f"omen_search.{pyx.stem}",
            [os.path.relpath(pyx, root)],
            include_dirs=[numpy.get_include(), COMMON_DIR, os.path.relpath(pyx.parent, root)],
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
            extra_compile_args=COMPILE_ARGS,
        )
        for pyx in sources
    ]
    return cythonize(
        modules,
        compiler_directives=DIRECTIVES,
        include_path=[COMMON_DIR],  # `from game_api cimport ...` finds ext/common/game_api.pxd
        build_dir=os.path.join(BUILD_BASE, "cython"),  # generated C stays out of ext/
    )


setup(ext_modules=extensions(), options={"build": {"build_base": BUILD_BASE}})
