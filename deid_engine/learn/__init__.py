"""The learning loop: review decisions become training data; retrain, compare, adopt or roll back.

- ``examples``: decisions -> gold examples (masking unreviewed text), BRAT/JSONL export.
- ``registry``: versioned user models, the active one, rollback.
- ``retrain``: fine-tuning a model on reviewed documents with replay (a Progress generator).
- ``compare``: old vs new model on the held-back reviewed documents.
- ``active``: uncertainty ordering of unreviewed documents and spans.
"""
