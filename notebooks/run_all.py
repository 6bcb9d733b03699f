"""Executes every notebook here headless (nbclient), failing on the first error.

Usage: python run_all.py   (DIEMON_REPORTS and DIEMON say where the reports and the binary
are; the defaults are ../reports and ../target/release/diemon.)
"""
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

here = Path(__file__).resolve().parent
failed = 0
for path in sorted(here.glob("*.ipynb")):
    nb = nbformat.read(path, as_version=4)
    try:
        NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(here)}}).execute()
        print(f"ok      {path.name}")
    except Exception as e:  # report every notebook, then fail
        failed += 1
        print(f"FAILED  {path.name}: {e}", file=sys.stderr)
sys.exit(1 if failed else 0)
