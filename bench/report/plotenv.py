"""The plotting environment: matplotlib, pinned, in a virtual environment
that the report creates on first use and reuses afterwards.

The environment lives under $XDG_CACHE_HOME/orma-bench (~/.cache/orma-bench
without it), one directory per Python minor version and matplotlib pin, so
that a new pin or a new Python gets a fresh one and old ones stay usable.
A marker file written last says the environment is complete; creation
holds a lock, so that concurrent reports (ctest -j) build it once.
"""

import fcntl
import importlib.util
import os
import shutil
import subprocess
import sys

MATPLOTLIB = "matplotlib==3.10.8"

# Exit status of the report when the plotting environment cannot be set
# up: the tests skip on it, and --no-plots is the way around it.
NO_ENV = 3


class EnvError(Exception):
    """The environment could not be made; the message says what is missing."""


def cache_root():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "orma-bench")


def default_dir():
    v = sys.version_info
    pin = MATPLOTLIB.replace("==", "-")
    return os.path.join(cache_root(), "venv-py%d.%d-%s" % (v[0], v[1], pin))


def _python(env_dir):
    return os.path.join(env_dir, "bin", "python")


def _marker(env_dir):
    return os.path.join(env_dir, "orma-bench-complete")


def ready(env_dir):
    """True when env_dir holds a complete environment whose interpreter runs
    (its python is a link to the interpreter that made it)."""
    return (os.path.exists(_marker(env_dir)) and
            os.path.exists(_python(env_dir)))


def _check_modules():
    if importlib.util.find_spec("venv") is None:
        raise EnvError("%s has no venv module (Debian: apt-get install "
                       "python3-venv)" % sys.executable)
    if importlib.util.find_spec("ensurepip") is None:
        raise EnvError("%s has no ensurepip module, so a virtual environment "
                       "would have no pip (Debian: apt-get install "
                       "python3-venv)" % sys.executable)


def _run(argv, what):
    try:
        proc = subprocess.run(argv, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    except OSError as e:
        raise EnvError("%s: %s" % (what, e))
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout)
        raise EnvError("%s failed (exit status %d, output above)"
                       % (what, proc.returncode))


def _create(env_dir):
    _check_modules()
    if os.path.exists(env_dir):
        shutil.rmtree(env_dir)  # incomplete: a creation that was cut short
    sys.stderr.write("orma-bench report: first use: installing %s from PyPI "
                     "into %s\n" % (MATPLOTLIB, env_dir))
    _run([sys.executable, "-m", "venv", env_dir],
         "%s -m venv %s" % (sys.executable, env_dir))
    _run([_python(env_dir), "-m", "pip", "install", "--quiet",
          "--disable-pip-version-check", "--no-input", "--retries", "2",
          "--timeout", "30", MATPLOTLIB],
         "pip install %s (it needs PyPI)" % MATPLOTLIB)
    with open(_marker(env_dir), "w") as f:
        f.write(MATPLOTLIB + "\n")


def ensure(env_dir):
    """Make env_dir a complete environment unless it is one; returns its
    interpreter.  Raises EnvError."""
    if ready(env_dir):
        return _python(env_dir)
    parent = os.path.dirname(os.path.abspath(env_dir))
    try:
        os.makedirs(parent, exist_ok=True)
        lock = open(os.path.join(parent, ".lock"), "w")
    except OSError as e:
        raise EnvError("cannot create %s: %s" % (parent, e))
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not ready(env_dir):  # made meanwhile by another report?
            _create(env_dir)
    return _python(env_dir)


def inside(env_dir):
    """True when this interpreter runs from env_dir."""
    return os.path.realpath(sys.prefix) == os.path.realpath(env_dir)
