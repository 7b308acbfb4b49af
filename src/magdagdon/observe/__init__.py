"""What an operator sees of a running server: its Prometheus metrics (``metrics.py``, counted
in every worker process and added up at the scrape: ``multiproc.py``) and its logs, plain or
one JSON object a line, each tied to its request by the request's id (``logs.py``).

The rest of the code counts through the one-line hooks of ``metrics.py``; a hook costs a
look-up and an increment, and nothing while the server counts nothing (``metrics.enable``).
"""
