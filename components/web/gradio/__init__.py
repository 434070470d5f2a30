"""The Gradio half of the web layer: everything that imports Gradio or reads its package files.

The pages and their wiring (`pages/`), the theme, the mount and the queue's settings (`mount.py`), the
patches (`patches/`), the page-config and asset tweaks, the look at the queue, and the named endpoints'
Gradio side (`endpoints.py`). The rest of `components/web/` speaks Starlette and uvicorn only and never
imports this package; `tests/test_layers.py` holds both rules.
"""
