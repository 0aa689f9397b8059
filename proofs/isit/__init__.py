"""Claims of 003_726cfd382c041001.txt."""
