"""Claims of 002_e8b3078a5cf2ef08.txt."""
