"""The page for puzzle makers and players: ``python -m localcount serve`` (the optional extra ``web``).

* ``app`` — the Starlette app: the static page and its HTTP API (``docs/web.md``), each endpoint a thin
  shell over the Python API (``localcount.api``) that checks the request and shapes the answer;
* ``static/`` — the page itself: HTML, CSS and JavaScript, no build step, nothing from a CDN.

Layer: above ``api``, below ``cli``; imports ``api`` (and, for names and limits, ``puzzle`` and
``results``; its pools' sizes and times from ``tuning``); Starlette and uvicorn only here.
"""
