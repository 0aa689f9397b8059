"""Claims of 001_29f852b736fc5e16.txt."""
