"""Reading and writing notes and annotations."""
