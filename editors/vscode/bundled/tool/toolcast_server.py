"""The bundled language server's launcher: ``python3 -I toolcast_server.py`` runs toolcast from the
extension's own copy (``../libs``, and ``../native/cpXY`` for the compiled rpds-py and regex of this Python), so
nothing needs to be installed but a Python 3.11+. ``-I`` keeps the user's PYTHONPATH and site-packages
out: the server runs the versions it was tested with."""

import os
import runpy
import sys

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
native = os.path.join(here, "native", "cp%d%d" % sys.version_info[:2])
if not os.path.isdir(native):  # also every Python before 3.11: there is no build for them
    built = sorted(n for n in os.listdir(os.path.join(here, "native")) if n.startswith("cp3"))
    sys.stderr.write("toolcast's bundled server has builds for Python %s, not for %d.%d (%s)\n" % (
        ", ".join("3." + n[3:] for n in built), sys.version_info[0], sys.version_info[1], sys.executable))
    sys.exit(3)
sys.path[0:0] = [native, os.path.join(here, "libs")]
runpy.run_module("toolcast.server", run_name="__main__", alter_sys=True)
