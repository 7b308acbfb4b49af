"""The revisions, oldest first; a file is ``rev<NNNN>_<slug>.py`` with ``revision = "<NNNN>"``."""
