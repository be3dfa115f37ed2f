import sys
from pathlib import Path

# the hypothesis profiles ("dev", "ci") are registered and loaded by the conftest.py at the root
sys.path.insert(0, str(Path(__file__).parent))
