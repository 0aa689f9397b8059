"""Claims of 000_aca93ed29ea857ee.txt."""
