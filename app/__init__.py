"""DeID Studio's Qt GUI. It reaches the engine only through ``app.actions``."""
