"""Claims of 004_3b35ffa09c03afc4.txt."""
