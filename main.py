"""Entry point: `python main.py --dataset medqa ...` (see README)."""

import sys

from mdagents.cli import main

if __name__ == "__main__":
    sys.exit(main())
